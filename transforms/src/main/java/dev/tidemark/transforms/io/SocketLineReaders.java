package dev.tidemark.transforms.io;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * The open socket connections of this JVM, by source id. A splittable DoFn returns after every
 * bundle and may resume on another instance of the DoFn; the connection, and the lines read but not
 * yet emitted, must outlive that, because a socket cannot be replayed.
 */
final class SocketLineReaders {

  private static final ConcurrentMap<String, SocketLineReader> READERS = new ConcurrentHashMap<>();

  private SocketLineReaders() {}

  static SocketLineReader get(String sourceId, Supplier<SocketLineReader> create) {
    return READERS.computeIfAbsent(sourceId, id -> create.get());
  }

  static void close(String sourceId) {
    SocketLineReader reader = READERS.remove(sourceId);
    if (reader != null) {
      reader.close();
    }
  }
}
