package dev.tidemark.pipelines.io.jdbc;

import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says once per outage and JVM that a database does not answer, however many writers wait on it:
 * one WARN line when the first writer finds it down, one INFO line when a writer gets through
 * again.
 */
final class Outages {

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.sink");

  /** The servers that are down, as their writers last found them. */
  private static final Set<String> DOWN = ConcurrentHashMap.newKeySet();

  private Outages() {}

  /** A writer of {@code table} found the database of {@code address} down with {@code error}. */
  static void down(JdbcAddress address, SQLException error) {
    if (DOWN.add(address.url())) {
      LOG.warn(
          "{} does not answer ({}); the table sinks hold their rows back and retry, with backoff,"
              + " until it does",
          address.server(),
          LoginErrors.firstLine(error));
    }
  }

  /** A writer got through to the database of {@code address}. */
  static void up(JdbcAddress address) {
    if (!DOWN.isEmpty() && DOWN.remove(address.url())) {
      LOG.info("{} answers again; the rows held back are written", address.server());
    }
  }
}
