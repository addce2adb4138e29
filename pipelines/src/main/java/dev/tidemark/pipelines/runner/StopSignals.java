package dev.tidemark.pipelines.runner;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and Ctrl-C (SIGINT) taken before the JVM begins to shut down: the stop runs first, while
 * everything the run needs is still there, and then the JVM exits with 128 + the signal's number
 * (143 for SIGTERM, 130 for Ctrl-C), as it would have by itself.
 *
 * <p>Why not a shutdown hook: the JVM runs every hook at once, in no order. An embedded Flink run
 * has hooks of its own (the BLOB server, the TaskManager's temporary directories) and tidemark one
 * that deletes the run's directory; a stop that reads the job's counters from the REST API, then
 * cancels it, raced them, and now and then found no running job left to ask ("counts unknown").
 * Java has no public API for signals; {@code sun.misc.Signal} is the one the JDK keeps for this
 * ({@code jdk.unsupported}). Where a JVM refuses a handler (a signal it uses itself, or {@code
 * -Xrs}), that signal is left to the JVM and the run's shutdown hook stops it as before.
 */
final class StopSignals implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);

  private static final String[] SIGNALS = {"TERM", "INT"};

  private final Map<Signal, SignalHandler> previous = new HashMap<>();

  /** The exit status of the signal taken, once its stop has run. */
  private final CompletableFuture<Integer> stopped = new CompletableFuture<>();

  private final AtomicBoolean taken = new AtomicBoolean();

  private StopSignals() {}

  /**
   * Runs {@code stop} on SIGTERM or SIGINT, then exits; until {@link #close}, which gives the
   * signals back to the handlers they had.
   */
  static StopSignals handledBy(Runnable stop) {
    StopSignals signals = new StopSignals();
    SignalHandler handler =
        signal -> {
          if (!signals.taken.compareAndSet(false, true)) {
            // A second signal, or the same one twice (Ctrl-C reaches both a relaunched run and
            // the JVM that launched it, which passes it on): the stop already under way is it.
            return;
          }
          int status = 128 + signal.getNumber();
          try {
            stop.run();
          } finally {
            signals.stopped.complete(status);
          }
          System.exit(status);
        };
    for (String name : SIGNALS) {
      Signal signal = new Signal(name);
      try {
        signals.previous.put(signal, Signal.handle(signal, handler));
      } catch (IllegalArgumentException e) {
        LOG.debug("SIG{} is left to the JVM: {}", name, e.getMessage());
      }
    }
    return signals;
  }

  /**
   * The exit status of the signal taken, once its stop has said what the run processed: the run's
   * own thread, woken by the cancel, must not end the JVM before that. Empty if no signal was
   * taken.
   */
  OptionalInt awaitStop() {
    return taken.get() ? OptionalInt.of(stopped.join()) : OptionalInt.empty();
  }

  @Override
  public void close() {
    previous.forEach(Signal::handle);
  }
}
