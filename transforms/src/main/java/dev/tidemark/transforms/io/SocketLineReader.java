package dev.tidemark.transforms.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection to a line-oriented socket server, kept across the bundles of {@link
 * ReadSocketLinesFn}, with the lines read but not yet emitted.
 *
 * <p>Connecting never fails the job: while the server is not listening, or after it went away, the
 * reader retries with exponential backoff (up to {@link #MAX_BACKOFF}) and logs one line per
 * outage, not one per attempt. Thread-safe.
 */
final class SocketLineReader implements Closeable {

  static final Duration READ_TIMEOUT = Duration.millis(100);
  static final Duration MIN_BACKOFF = Duration.millis(100);
  static final Duration MAX_BACKOFF = Duration.standardSeconds(5);
  private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

  /** How much one {@link #fill} reads at the most, so the lines it queues stay bounded. */
  private static final long MAX_BYTES_PER_FILL = 1 << 20;

  private static final Logger LOG = LoggerFactory.getLogger(SocketLineReader.class);

  private final String host;
  private final int port;
  private final boolean reconnect;
  private final LineSplitter splitter;
  private final Deque<LineSplitter.Line> pending = new ArrayDeque<>();
  private final byte[] buffer = new byte[64 * 1024];

  private @Nullable Socket socket;
  private @Nullable InputStream in;
  private Instant nextAttempt = new Instant(0);
  private Duration backoff = MIN_BACKOFF;
  private boolean inOutage;
  private boolean finished;

  /**
   * {@code reconnect}: whether to connect again after the server closes the connection; {@code
   * maxLineBytes}: how much of a line is kept ({@link LineSplitter}).
   */
  SocketLineReader(String host, int port, boolean reconnect, int maxLineBytes) {
    this.host = host;
    this.port = port;
    this.reconnect = reconnect;
    this.splitter = new LineSplitter(maxLineBytes);
  }

  /** The oldest line read and not yet taken, or null. */
  synchronized LineSplitter.@Nullable Line peek() {
    return pending.peekFirst();
  }

  /** Removes the line {@link #peek} returned. */
  synchronized void take() {
    pending.removeFirst();
  }

  /**
   * Waits up to {@link #READ_TIMEOUT} for data (connecting first if needed) and queues the lines it
   * completes, reading about {@link #MAX_BYTES_PER_FILL} at the most. Returns whether it read
   * anything: a long line may take many calls before it completes a line.
   */
  synchronized boolean fill() {
    if (finished || !ensureConnected()) {
      return false;
    }
    long readNow = 0;
    try {
      int read = in.read(buffer);
      while (read > 0) {
        splitter.feed(buffer, read, pending::addLast);
        readNow += read;
        // A sender faster than the job fills the next call's queue, not this one's without end.
        read = readNow < MAX_BYTES_PER_FILL && in.available() > 0 ? in.read(buffer) : 0;
      }
      if (read < 0) {
        disconnect("the server closed the connection");
      }
    } catch (SocketTimeoutException e) {
      // Nothing arrived within the read timeout: the reader is caught up.
    } catch (IOException e) {
      disconnect(e.toString());
    }
    return readNow > 0;
  }

  /** Whether the connection ended and will not be made again; only when not reconnecting. */
  synchronized boolean isFinished() {
    return finished && pending.isEmpty();
  }

  @Override
  public synchronized void close() {
    closeSocket();
    finished = true;
  }

  private boolean ensureConnected() {
    if (socket != null) {
      return true;
    }
    Instant now = Instant.now();
    if (now.isBefore(nextAttempt)) {
      return false;
    }
    Socket candidate = new Socket();
    try {
      candidate.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
      candidate.setSoTimeout((int) READ_TIMEOUT.getMillis());
      socket = candidate;
      in = candidate.getInputStream();
      LOG.info("Socket source connected to {}:{}", host, port);
      inOutage = false;
      backoff = MIN_BACKOFF;
      return true;
    } catch (IOException e) {
      closeQuietly(candidate);
      if (!inOutage) {
        LOG.warn(
            "Socket source cannot reach {}:{} ({}); retrying every {} s at most until it can",
            host,
            port,
            e.getMessage(),
            MAX_BACKOFF.getStandardSeconds());
        inOutage = true;
      }
      nextAttempt = now.plus(backoff);
      backoff =
          backoff.multipliedBy(2).isLongerThan(MAX_BACKOFF) ? MAX_BACKOFF : backoff.plus(backoff);
      return false;
    }
  }

  private void disconnect(String reason) {
    splitter.flush(pending::addLast);
    closeSocket();
    if (reconnect) {
      LOG.warn("Socket source lost {}:{} ({}); reconnecting", host, port, reason);
      inOutage = true;
    } else {
      LOG.info("Socket source {}:{} ended ({})", host, port, reason);
      finished = true;
    }
  }

  private void closeSocket() {
    if (socket != null) {
      closeQuietly(socket);
    }
    socket = null;
    in = null;
  }

  private static void closeQuietly(Socket toClose) {
    try {
      toClose.close();
    } catch (IOException e) {
      LOG.debug("Closing a socket failed", e);
    }
  }
}
