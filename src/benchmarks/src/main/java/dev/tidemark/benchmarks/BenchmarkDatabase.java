package dev.tidemark.benchmarks;

import dev.tidemark.stack.PostgresNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.io.MoreFiles;

/**
 * The PostgreSQL server of a benchmark that writes tables ({@link TidemarkTableRun}): the stack's
 * ({@link PostgresNode}), on a free loopback port, its data under {@code /tmp}, started once for
 * every run, stopped and deleted at the end.
 */
final class BenchmarkDatabase implements AutoCloseable {

  private final PostgresNode node;
  private final Path login;

  private BenchmarkDatabase(PostgresNode node, Path login) {
    this.node = node;
    this.login = login;
  }

  static BenchmarkDatabase start() throws IOException, InterruptedException {
    PostgresNode node = PostgresNode.startFresh("tidemark-benchmark-postgres-");
    return new BenchmarkDatabase(
        node, node.writeLogin(node.directory().resolve("jdbc.properties")));
  }

  /** The JVM options that give a {@link TidemarkTableRun} this server. */
  List<String> jvmOptions() {
    return List.of(
        "-D" + TidemarkTableRun.URL + "=" + node.url(),
        "-D" + TidemarkTableRun.LOGIN + "=" + login);
  }

  @Override
  public void close() throws IOException, InterruptedException {
    node.close();
    MoreFiles.deleteRecursively(node.directory());
  }
}
