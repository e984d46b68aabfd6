package io.sam3stream.reliability;

/** One class of bad input: sends an instance of it to the running service and checks the outcome it must get. */
@FunctionalInterface
interface BadInput {

    /**
     * @param service the service under test and the ways to reach it
     * @param id      a request id (and Kafka key) unique to this class
     */
    void sendAndCheck(CorpusService service, String id) throws Exception;
}
