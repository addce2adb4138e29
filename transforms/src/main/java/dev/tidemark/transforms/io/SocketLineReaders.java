package dev.tidemark.transforms.io;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The open socket connections of this JVM, by source id: the one place a socket source's state
 * lives between bundles.
 *
 * <p>Why it is JVM-wide: a splittable DoFn returns after every bundle and may resume on another
 * instance of the DoFn (the DirectRunner keeps one instance per thread), and a socket cannot be
 * replayed, so the connection and the lines read but not yet emitted must outlive the instance that
 * opened them. Why it never outlives a job: each instance of the source's DoFn holds its source
 * from {@code @Setup} to {@code @Teardown} ({@link #hold}, {@link #release}), and the last instance
 * of this JVM to let go closes the connection and removes it. A source id is unique to the pipeline
 * that built the source, so two jobs in one TaskManager never share a connection, and a job that
 * ends, is cancelled or fails over leaves nothing behind.
 */
final class SocketLineReaders {

  /** A source's connection, opened on first use, and how many DoFn instances hold the source. */
  private static final class Held {
    private @Nullable SocketLineReader reader;
    private int holders;
  }

  /** Guarded by itself. */
  private static final Map<String, Held> BY_SOURCE = new HashMap<>();

  private SocketLineReaders() {}

  /** One more instance of the source's DoFn uses it, until it calls {@link #release}. */
  static void hold(String sourceId) {
    synchronized (BY_SOURCE) {
      BY_SOURCE.computeIfAbsent(sourceId, id -> new Held()).holders++;
    }
  }

  /** The source's connection, made by {@code open} on first use; the source must be held. */
  static SocketLineReader reader(String sourceId, Supplier<SocketLineReader> open) {
    synchronized (BY_SOURCE) {
      Held held = BY_SOURCE.get(sourceId);
      if (held == null) {
        throw new IllegalStateException("the socket source " + sourceId + " is not held");
      }
      if (held.reader == null) {
        held.reader = open.get();
      }
      return held.reader;
    }
  }

  /** The source has read its last line: closes its connection, which is never opened again. */
  static void finished(String sourceId) {
    synchronized (BY_SOURCE) {
      Held held = BY_SOURCE.get(sourceId);
      if (held != null && held.reader != null) {
        held.reader.close();
      }
    }
  }

  /** One instance less uses the source; after the last, its connection is closed and forgotten. */
  static void release(String sourceId) {
    synchronized (BY_SOURCE) {
      Held held = BY_SOURCE.get(sourceId);
      if (held == null || --held.holders > 0) {
        return;
      }
      BY_SOURCE.remove(sourceId);
      if (held.reader != null) {
        held.reader.close();
      }
    }
  }
}
