package dev.tidemark.pipelines.runner;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The client's end of the line by which a job on a cluster knows whether the client that submitted
 * it and waits for it is still there ({@link ClientLifelineFn} is the job's end). Flink keeps a job
 * running when its attached client dies; without this line nothing would say so, and the user would
 * not know there is a job to find and cancel.
 *
 * <p>The client listens on the address it reaches the JobManager from; each instance of the job's
 * step that follows it connects to it. On every connection the client writes one line per {@link
 * #BEAT}: {@code job <id>} once it knows the job's id, else {@code alive}; and {@code bye} when it
 * ends on purpose (its job ended, or it cancelled it). A connection that closes without {@code
 * bye}, or is silent for {@link #SILENCE}, means the client is gone: killed, its terminal closed,
 * its machine lost. Written by hand: Flink's own client heartbeat ({@code client.heartbeat.*})
 * cancels the job instead, and only when submitted with {@code
 * execution.shutdown-on-attached-exit}.
 */
final class ClientLifeline implements AutoCloseable {

  /** How often the client says it is there. */
  static final Duration BEAT = Duration.ofSeconds(2);

  /** How long the job waits for a line before it takes the client for gone. */
  static final Duration SILENCE = BEAT.multipliedBy(5);

  static final String ALIVE = "alive";
  static final String JOB = "job ";
  static final String BYE = "bye";

  private final ServerSocket server;
  private final List<Socket> connections = new ArrayList<>();

  /** Started on the constructing thread, interrupted on whichever ends the client. */
  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  /** Set and read under the lock of {@link #connections}. */
  private @Nullable String jobId;

  private ClientLifeline(ServerSocket server) {
    this.server = server;
  }

  /** Starts accepting the steps' connections and writing to them, once constructed. */
  private ClientLifeline started() {
    threads.add(PipelineRun.daemon(this::accept, "tidemark-lifeline-accept"));
    threads.add(PipelineRun.daemon(this::beat, "tidemark-lifeline-beat"));
    return this;
  }

  /**
   * Listens on the local address this machine reaches {@code master} ({@code HOST:PORT}) from;
   * empty when it cannot reach it, or cannot listen there: the job then runs without the line.
   */
  static Optional<ClientLifeline> open(String master) {
    int colon = master.lastIndexOf(':');
    try (Socket probe = new Socket()) {
      probe.connect(
          new InetSocketAddress(
              master.substring(0, colon), Integer.parseInt(master.substring(colon + 1))),
          (int) BEAT.toMillis());
      InetAddress local = probe.getLocalAddress();
      return Optional.of(new ClientLifeline(new ServerSocket(0, 50, local)).started());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Where the job's steps reach this client: {@code HOST:PORT}. */
  String address() {
    return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
  }

  /**
   * The id of the job the client waits for, which the job's log names when the client has gone:
   * sent at once, and to every connection made later as it is made.
   */
  void jobIs(String id) {
    synchronized (connections) {
      jobId = id;
      sendBeat();
    }
  }

  /**
   * Sends every connection the line of this beat. The line is chosen under the same lock as {@link
   * #jobIs} sets the id, so that no connection hears {@code alive} after {@code job <id>}.
   */
  private void sendBeat() {
    synchronized (connections) {
      String id = jobId;
      sendToAll(id == null ? ALIVE : JOB + id);
    }
  }

  private void accept() {
    try {
      while (true) {
        Socket connection = server.accept();
        synchronized (connections) {
          connections.add(connection);
        }
        sendBeat();
      }
    } catch (IOException e) {
      // The server is closed: the client is ending.
    }
  }

  private void beat() {
    try {
      while (true) {
        sendBeat();
        Thread.sleep(BEAT.toMillis());
      }
    } catch (InterruptedException e) {
      // The client is ending.
    }
  }

  private void sendToAll(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (connections) {
      connections.removeIf(
          connection -> {
            try {
              OutputStream out = connection.getOutputStream();
              out.write(bytes);
              out.flush();
              return false;
            } catch (IOException e) {
              closeQuietly(connection);
              return true;
            }
          });
    }
  }

  /** The client ends on purpose: tells every connection so, then closes the line. */
  @Override
  public void close() {
    threads.forEach(Thread::interrupt);
    closeQuietly(server);
    synchronized (connections) {
      // Under one lock with the closing: a beat after the bye would find no connection left.
      sendToAll(BYE);
      connections.forEach(ClientLifeline::closeQuietly);
      connections.clear();
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // Closing on the way out: nothing left to tell.
    }
  }
}
