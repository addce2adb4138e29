package dev.tidemark.transforms.testing;

import java.net.BindException;
import java.util.concurrent.Callable;

/**
 * Starts a service on free loopback ports again, on new ones, when it could not bind them. A port
 * that {@link LineServer#freePort()} found free can be taken by another process before the service
 * binds it: the service then exits with a {@link BindException} in its log, and a new start picks
 * new ports.
 */
public final class PortRaces {

  private static final int ATTEMPTS = 3;

  private PortRaces() {}

  /**
   * What {@code start} returns, calling it again while it fails because a port was taken, up to 3
   * times in all. {@code start} frees what it started before it throws.
   */
  public static <T> T startOnFreePorts(Callable<T> start) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return start.call();
      } catch (IllegalStateException e) {
        if (attempt == ATTEMPTS || !aPortWasTaken(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean aPortWasTaken(IllegalStateException e) {
    String message = String.valueOf(e.getMessage());
    return message.contains(BindException.class.getName())
        || message.contains("Address already in use");
  }
}
