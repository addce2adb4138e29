package dev.tidemark.transforms.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A real TCP server on a free loopback port that sends text lines to the one client that connects,
 * like {@code nc -lk PORT}. Closing it closes the connection and the port.
 */
public final class LineServer implements AutoCloseable {

  /** The lowest port {@link #freePort} chooses: above the well-known and most registered ones. */
  private static final int LOWEST_NAMED_PORT = 10_000;

  private final ServerSocket server;
  private Socket client;

  /** Listens on a free loopback port. */
  public LineServer() throws IOException {
    this(0);
  }

  /** Listens on loopback {@code port}, e.g. one from {@link #freePort()}. */
  public LineServer(int port) throws IOException {
    server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
  }

  /**
   * A loopback port that nothing listens on right now, for a service that binds it by number (a
   * broker, a Flink node): below the system's ephemeral range where the system says where that
   * starts (Linux), so that no server bound to port 0, as this class's own are, can be given it.
   *
   * <p>Why: clients keep coming back to a service's port. A broker stopped for an outage test is
   * asked again and again by its clients while it is down, and a {@code LineServer} given its port
   * in that time took a Kafka client's connection for its socket source's; the test's lines went to
   * that client, and the source, which connected after the server closed, retried for ever.
   */
  public static int freePort() throws IOException {
    OptionalInt ephemeral = ephemeralRangeStart();
    if (ephemeral.isPresent() && ephemeral.getAsInt() > LOWEST_NAMED_PORT) {
      for (int attempt = 0; attempt < 50; attempt++) {
        int port = ThreadLocalRandom.current().nextInt(LOWEST_NAMED_PORT, ephemeral.getAsInt());
        try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
          return probe.getLocalPort();
        } catch (IOException taken) {
          // Another port.
        }
      }
    }
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    }
  }

  private static OptionalInt ephemeralRangeStart() {
    try {
      String[] range =
          Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
              .get(0)
              .trim()
              .split("\\s+");
      return OptionalInt.of(Integer.parseInt(range[0]));
    } catch (IOException | RuntimeException e) {
      return OptionalInt.empty();
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Waits up to {@code timeout} for the source to connect. */
  public void awaitClient(long timeout, TimeUnit unit) throws IOException {
    server.setSoTimeout((int) unit.toMillis(timeout));
    client = server.accept();
  }

  /** Sends {@code lines}, each followed by a newline, and flushes. */
  public void send(List<String> lines) throws IOException {
    OutputStream out = client.getOutputStream();
    for (String line : lines) {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    out.flush();
  }

  /**
   * Sends a line of {@code bytes} times {@code filler} and its newline, in reads of 64 KiB: never
   * held whole, however long.
   */
  public void sendLineOf(long bytes, char filler) throws IOException {
    OutputStream out = client.getOutputStream();
    byte[] chunk = new byte[64 * 1024];
    Arrays.fill(chunk, (byte) filler);
    for (long sent = 0; sent < bytes; sent += chunk.length) {
      out.write(chunk, 0, (int) Math.min(chunk.length, bytes - sent));
    }
    out.write('\n');
    out.flush();
  }

  /**
   * Whether the connected source closes its end within {@code timeout}: reads what it sends, until
   * the end of the stream.
   */
  public boolean awaitClientGone(long timeout, TimeUnit unit) throws IOException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    InputStream in = client.getInputStream();
    while (System.nanoTime() < deadline) {
      client.setSoTimeout(
          (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      try {
        if (in.read() < 0) {
          return true;
        }
      } catch (SocketTimeoutException stillOpen) {
        return false;
      } catch (SocketException reset) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    if (client != null) {
      client.close();
    }
    server.close();
  }
}
