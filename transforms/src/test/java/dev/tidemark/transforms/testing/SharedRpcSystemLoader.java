package dev.tidemark.transforms.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.rpc.AddressResolution;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;
import org.apache.flink.runtime.rpc.pekko.PekkoRpcSystemLoader;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One Flink RPC system for every embedded cluster that a test JVM starts. For each cluster, Flink's
 * own loader unpacks its RPC jar (22 MB of Pekko and Scala) into a new file and loads those classes
 * again into a new class loader; the suite runs a few hundred pipelines on embedded Flink, and paid
 * that each time, a second or more of CPU on this 2-core machine. Flink asks each {@link
 * RpcSystemLoader} on the class path, the lowest load priority first: this one, listed in the
 * tests' {@code META-INF/services}, comes before Pekko's (priority 0), asks Pekko's loader once,
 * and gives every cluster the same system, which a cluster's close leaves open. It is the very RPC
 * system Flink would load, loaded once per JVM; the shaded jar has no test classes and loads it
 * from its own class path, once for the one cluster of a run. The JobManager and TaskManagers that
 * the ITs start on the test class path find this loader too, and load the system once, as they
 * would anyway. Its jar goes when the JVM exits.
 */
public final class SharedRpcSystemLoader implements RpcSystemLoader {

  private static @Nullable RpcSystem shared;

  /**
   * The lowest of every loader a test JVM may list: Flink asks its loaders by walking a priority
   * queue with its iterator, which gives the lowest first and the rest in no particular order. With
   * the pipelines' loader on the class path too (-2, which finds no system there), Pekko's came
   * second in some JVMs, and their clusters unpacked the RPC jar again.
   */
  @Override
  public int getLoadPriority() {
    return -3;
  }

  @Override
  public RpcSystem loadRpcSystem(Configuration config) {
    return new KeptOpen(shared());
  }

  /**
   * Pekko's RPC system, loaded on first use with its jar unpacked into a directory of its own: not
   * into the first cluster's {@code io.tmp.dirs}, which its test may delete.
   */
  private static synchronized RpcSystem shared() {
    if (shared == null) {
      try {
        Path directory = Files.createTempDirectory("tidemark-rpc-system-");
        Configuration unpackInto = new Configuration();
        unpackInto.set(CoreOptions.TMP_DIRS, directory.toString());
        shared = new PekkoRpcSystemLoader().loadRpcSystem(unpackInto);
        deleteOnExit(directory);
      } catch (IOException e) {
        throw new UncheckedIOException("a directory for Flink's RPC jar", e);
      }
    }
    return shared;
  }

  /**
   * Deletes {@code directory} and the jar in it as the JVM exits, the jar first. The class loader
   * still has the jar open then, which on Linux keeps its contents readable.
   */
  private static void deleteOnExit(Path directory) throws IOException {
    directory.toFile().deleteOnExit();
    try (Stream<Path> files = Files.list(directory)) {
      files.forEach(file -> file.toFile().deleteOnExit());
    }
  }

  /** {@code system}, whose {@link #close} leaves it open for the next cluster. */
  private static final class KeptOpen implements RpcSystem {

    private final RpcSystem system;

    KeptOpen(RpcSystem system) {
      this.system = system;
    }

    @Override
    public RpcServiceBuilder localServiceBuilder(Configuration config) {
      return system.localServiceBuilder(config);
    }

    @Override
    public RpcServiceBuilder remoteServiceBuilder(
        Configuration config, @Nullable String externalAddress, String externalPortRange) {
      return system.remoteServiceBuilder(config, externalAddress, externalPortRange);
    }

    @Override
    public String getRpcUrl(
        String hostname,
        int port,
        String endpointName,
        AddressResolution addressResolution,
        Configuration config)
        throws UnknownHostException {
      return system.getRpcUrl(hostname, port, endpointName, addressResolution, config);
    }

    @Override
    public InetSocketAddress getInetSocketAddressFromRpcUrl(String url) throws Exception {
      return system.getInetSocketAddressFromRpcUrl(url);
    }

    @Override
    public long getMaximumMessageSizeInBytes(Configuration config) {
      return system.getMaximumMessageSizeInBytes(config);
    }

    @Override
    public void close() {
      // The next cluster of this JVM uses it too; the JVM's exit ends it.
    }
  }
}
