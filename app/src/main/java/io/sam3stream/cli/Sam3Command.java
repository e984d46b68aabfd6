package io.sam3stream.cli;

import io.sam3stream.worker.WorkerCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code sam3} command line: one subcommand per job the worker can do. */
@Command(
        name = "sam3",
        mixinStandardHelpOptions = true,
        description = "SAM3 segmentation: engine, Kafka worker and tools.",
        subcommands = {CommandLine.HelpCommand.class, TokenizeCommand.class, ParityCommand.class, SmokeCommand.class, DevCommand.class,
            WorkerCommand.class, PredictCommand.class, LabelCommand.class,
            BenchCommand.class})
public final class Sam3Command implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Builds the command line with every subcommand registered. */
    public static CommandLine commandLine() {
        return new CommandLine(new Sam3Command());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
