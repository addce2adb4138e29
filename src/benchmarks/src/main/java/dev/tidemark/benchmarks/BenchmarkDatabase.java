package dev.tidemark.benchmarks;

import dev.tidemark.stack.PostgresNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * The PostgreSQL server of a benchmark that writes tables ({@link TidemarkTableRun}): the stack's
 * ({@link PostgresNode}), on a free loopback port, its data under {@code /tmp}, started once for
 * every run and stopped at the end.
 */
final class BenchmarkDatabase implements AutoCloseable {

  private final PostgresNode node;
  private final Path login;

  private BenchmarkDatabase(PostgresNode node, Path login) {
    this.node = node;
    this.login = login;
  }

  static BenchmarkDatabase start() throws IOException, InterruptedException {
    Path directory = Files.createTempDirectory(Path.of("/tmp"), "tidemark-benchmark-postgres-");
    String password = UUID.randomUUID().toString();
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    PostgresNode node =
        PostgresNode.start(directory, port, password, directory.resolve("postgres.log"));
    Path login = directory.resolve("jdbc.properties");
    Files.writeString(login, "user=" + PostgresNode.SUPERUSER + "\npassword=" + password + "\n");
    return new BenchmarkDatabase(node, login);
  }

  /** The JVM options that give a {@link TidemarkTableRun} this server. */
  List<String> jvmOptions() {
    return List.of(
        "-D" + TidemarkTableRun.URL + "=" + node.url(),
        "-D" + TidemarkTableRun.LOGIN + "=" + login);
  }

  @Override
  public void close() throws InterruptedException {
    node.close();
  }
}
