/**
 * What an operator sees of a worker: its meters ({@link io.sam3stream.operations.WorkerMetrics}), its liveness and
 * readiness ({@link io.sam3stream.operations.WorkerHealth}) and the small HTTP endpoint that serves both
 * ({@link io.sam3stream.operations.OperationsServer}). Nothing here touches Kafka's consumer or producer: the
 * worker's loop and pipeline report to these classes, which only count, time and answer probes.
 */
package io.sam3stream.operations;
