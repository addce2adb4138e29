package dev.tidemark.stack;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL server on loopback, from PostgreSQL's own binaries ({@link PostgresBinaries}):
 * its cluster in {@code DIRECTORY/data}, made by {@code initdb} on the first start, with a
 * superuser {@code postgres} that logs in by password over TCP (SCRAM) and a database {@code
 * tidemark}; no Unix socket. PostgreSQL refuses to run as root, so when this JVM is root the server
 * runs as {@code nobody} ({@code setpriv}), and its directory must be one that user can reach: a
 * directory under {@code /tmp}, say, not one below a private home.
 *
 * <p>{@link #stop()} shuts it down fast (clients are disconnected) and keeps its data; {@link
 * #startAgain()} brings it back on the same port, as a database restart does.
 */
public final class PostgresNode implements AutoCloseable {

  /** The superuser a new cluster has. */
  public static final String SUPERUSER = "postgres";

  /** The database a new cluster has, beside PostgreSQL's own. */
  public static final String DATABASE = "tidemark";

  private static final Duration STARTUP = Duration.ofSeconds(60);

  private final Path home;
  private final Path directory;
  private final Path data;
  private final int port;
  private final String password;
  private final Path log;
  private Process process;

  private PostgresNode(Path directory, int port, String password, Path log) {
    this.home = PostgresBinaries.home();
    this.directory = directory;
    this.data = directory.resolve("data");
    this.port = port;
    this.password = password;
    this.log = log;
  }

  /**
   * Starts the server of {@code directory} on {@code port}, making its cluster first if it has
   * none, with {@code password} for the superuser; its log goes to {@code log}. Returns once it
   * takes connections.
   *
   * @throws IllegalStateException when it did not start in time, naming its log
   */
  public static PostgresNode start(Path directory, int port, String password, Path log)
      throws IOException, InterruptedException {
    PostgresNode node = new PostgresNode(directory, port, password, log);
    boolean created = !Files.isDirectory(node.data);
    if (created) {
      node.initialise(directory);
    }
    node.startAgain();
    if (created) {
      node.execute("postgres", "CREATE DATABASE " + DATABASE);
    }
    return node;
  }

  /**
   * Starts a new server on a free loopback port, its cluster in a new directory under {@code /tmp}
   * named after {@code prefix}, with a random superuser password; its log is {@code postgres.log}
   * there. For tests and benchmarks: {@link #directory()} is theirs to delete after {@link
   * #close()}.
   */
  public static PostgresNode startFresh(String prefix) throws IOException, InterruptedException {
    Path directory = Files.createTempDirectory(Path.of("/tmp"), prefix);
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    return start(directory, port, UUID.randomUUID().toString(), directory.resolve("postgres.log"));
  }

  /** The directory of the server's cluster and files. */
  public Path directory() {
    return directory;
  }

  /**
   * Writes the superuser's login to {@code file} as a {@code --jdbcProperties} file, readable by
   * this user alone, and returns it.
   */
  public Path writeLogin(Path file) throws IOException {
    Files.writeString(file, "user=" + SUPERUSER + "\npassword=" + password + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /** The JDBC URL of {@code database} on this server. */
  public String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** The JDBC URL of the {@code tidemark} database. */
  public String url() {
    return url(DATABASE);
  }

  public int port() {
    return port;
  }

  /** The properties PostgreSQL's JDBC driver logs in with as the superuser. */
  public Properties superuser() {
    Properties login = new Properties();
    login.setProperty("user", SUPERUSER);
    login.setProperty("password", password);
    return login;
  }

  /** The server process's id. */
  public long pid() {
    return process.pid();
  }

  /** Runs {@code statements} in {@code database} as the superuser, each in its own transaction. */
  public void execute(String database, String... statements) {
    try (Connection connection = DriverManager.getConnection(url(database), superuser());
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL refused: " + e.getMessage(), e);
    }
  }

  /** Starts the server again after {@link #stop()}, with its data, on its port. */
  public void startAgain() throws IOException, InterruptedException {
    process =
        launch(
            "postgres",
            "-D",
            data.toString(),
            "-p",
            Integer.toString(port),
            "-h",
            "127.0.0.1",
            "-k",
            "",
            "-c",
            "fsync=off",
            "-c",
            "max_connections=200");
    awaitConnections();
  }

  /** Shuts the server down fast, disconnecting its clients, and waits until it has. */
  public void stop() throws InterruptedException {
    if (process == null || !process.isAlive()) {
      return;
    }
    try {
      Process stop = launch("pg_ctl", "-D", data.toString(), "-m", "fast", "-w", "stop");
      stop.waitFor(30, TimeUnit.SECONDS);
    } catch (IOException e) {
      process.destroy();
    }
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  private void initialise(Path directory) throws IOException, InterruptedException {
    // The server user must reach its data through the directory, and read the password file.
    Files.createDirectories(directory);
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx--x--x"));
    Files.createDirectory(data);
    Path passwordFile = directory.resolve("superuser-password");
    Files.writeString(passwordFile, password + "\n", StandardCharsets.UTF_8);
    try {
      if (ServerUser.isNeeded()) {
        ServerUser.own(data);
        Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-r--r--"));
      }
      Process initdb =
          launch(
              "initdb",
              "-D",
              data.toString(),
              "-U",
              SUPERUSER,
              "--pwfile=" + passwordFile,
              "--auth-host=scram-sha-256",
              "--auth-local=reject",
              "-E",
              "UTF8",
              "--locale=C",
              "--no-sync");
      if (!initdb.waitFor(60, TimeUnit.SECONDS) || initdb.exitValue() != 0) {
        throw new IllegalStateException("initdb failed; see " + log);
      }
    } finally {
      Files.deleteIfExists(passwordFile);
    }
  }

  private void awaitConnections() throws InterruptedException {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    Properties login = superuser();
    login.setProperty("connectTimeout", "2");
    while (System.nanoTime() < deadline && process.isAlive()) {
      try (Connection connection = DriverManager.getConnection(url("postgres"), login)) {
        return;
      } catch (SQLException notYet) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException(
        "PostgreSQL did not take connections on port " + port + "; see " + log);
  }

  /**
   * Starts PostgreSQL's program {@code program} with {@code arguments} as the server's user: this
   * one, or {@code nobody} if this one is root; its output goes to the server's log.
   */
  private Process launch(String program, String... arguments) throws IOException {
    List<String> line = new ArrayList<>();
    if (ServerUser.isNeeded()) {
      line.addAll(ServerUser.switchTo());
    }
    line.add(home.resolve("bin").resolve(program).toString());
    line.addAll(List.of(arguments));
    return new ProcessBuilder(line)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
  }
}
