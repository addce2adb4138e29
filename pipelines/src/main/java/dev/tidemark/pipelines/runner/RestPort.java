package dev.tidemark.pipelines.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses the port of an embedded run's REST API: one free on 127.0.0.1 now, and below the system's
 * ephemeral range where the system says where that starts (Linux).
 *
 * <p>Why below it: Flink binds the port a second or two after it is chosen, when Beam's FlinkRunner
 * starts the cluster. A port from the ephemeral range can meanwhile be handed to any outgoing
 * connection of the machine (a Kafka client's, an HTTP client's), and the run then fails as it
 * starts with "Could not start rest endpoint on any port". A port below the range is only ever
 * taken by a listener that asks for it by number. Where the range is unknown, the system chooses.
 */
final class RestPort {

  /** Where the system's ephemeral range is on Linux: "LOW HIGH". */
  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  /** The lowest port chosen: above the well-known and most registered ones. */
  static final int LOWEST = 10_000;

  private static final int ATTEMPTS = 50;

  private RestPort() {}

  /** A port free on 127.0.0.1 now; below the ephemeral range where it is known. */
  static int choose() {
    OptionalInt ephemeral = ephemeralRangeStart();
    if (ephemeral.isPresent() && ephemeral.getAsInt() > LOWEST) {
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        int port = ThreadLocalRandom.current().nextInt(LOWEST, ephemeral.getAsInt());
        if (isFree(port)) {
          return port;
        }
      }
    }
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("finding a free port for the embedded Flink's REST API", e);
    }
  }

  /** The first port of the system's ephemeral range, if the system says. */
  static OptionalInt ephemeralRangeStart() {
    try {
      // Not Files.readString: procfs reports a size of 0, and it returned the first digit only.
      String[] range = Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+");
      return OptionalInt.of(Integer.parseInt(range[0]));
    } catch (IOException | RuntimeException e) {
      return OptionalInt.empty();
    }
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
