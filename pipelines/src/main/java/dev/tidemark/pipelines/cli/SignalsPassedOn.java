package dev.tidemark.pipelines.cli;

import java.io.IOException;
import sun.misc.Signal;

/**
 * SIGTERM and Ctrl-C (SIGINT) that reach a JVM which runs tidemark's command in another JVM ({@link
 * AutomaticStartupArchive}), passed on to that JVM, whose run stops as it would have by itself;
 * this JVM keeps running until that one has ended, and ends with its exit code.
 *
 * <p>Java has no public API for signals; {@code sun.misc.Signal} is the one the JDK keeps for this
 * ({@code jdk.unsupported}), and {@link Process#destroy} sends SIGTERM. SIGINT is sent with {@code
 * kill -INT}, where there is one, and as SIGTERM where not. Where this JVM refuses a handler
 * ({@code -Xrs}), its shutdown hook sends SIGTERM and waits for the run to end.
 */
final class SignalsPassedOn {

  private SignalsPassedOn() {}

  /** Passes SIGTERM and SIGINT that reach this JVM on to {@code run}. */
  static void to(Process run) {
    handle("TERM", () -> run.destroy());
    handle("INT", () -> interrupt(run));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  if (run.isAlive()) {
                    run.destroy();
                    run.onExit().join();
                  }
                },
                "tidemark-stop-mapped-run"));
  }

  private static void handle(String name, Runnable passOn) {
    try {
      Signal.handle(new Signal(name), signal -> passOn.run());
    } catch (IllegalArgumentException e) {
      // Left to the JVM: its shutdown hook passes SIGTERM on.
    }
  }

  private static void interrupt(Process run) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-INT", Long.toString(run.pid()))
              .redirectErrorStream(true)
              .start();
      kill.getInputStream().readAllBytes();
      if (kill.waitFor() == 0) {
        return;
      }
    } catch (IOException e) {
      // No kill(1) here: SIGTERM below.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    run.destroy();
  }
}
