package dev.tidemark.pipelines.runner;

import dev.tidemark.pipelines.config.TidemarkOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job's end of the line to the client that waits for it ({@link ClientLifeline}): in a job
 * whose client waits for it on a cluster, follows that client from a thread of its own while the
 * step runs. When the client goes without saying {@code bye} (killed, its terminal closed, its
 * machine lost), it says so once, in the TaskManager's log, with how to find and cancel the job,
 * which runs on. Each parallel instance of the step follows the client, so a job at parallelism N
 * says it once per instance.
 *
 * <p>It is a step of its own beside the write of the job's late records, and outputs nothing: late
 * records come from the step that decides panes, which runs as long as the job has results to give,
 * and they are few. Each element that passes a step costs a bundle of its own on Flink when rows
 * must come at the watermark's pace, and so it stands beside the step where fewest elements pass,
 * not before the results' sink. Without a client to follow (a local run, a detached submission, a
 * job submitted by Flink's own tools) it does nothing.
 *
 * @param <T> the elements beside whose write it stands, which it ignores
 */
public final class ClientLifelineFn<T> extends DoFn<T, Void> {

  private static final long serialVersionUID = 1L;

  private static final Logger LOG = LoggerFactory.getLogger("tidemark.client");

  private transient @Nullable Thread following;
  private transient volatile @Nullable Socket connection;

  /** The job's id, once the client has said it. */
  private transient volatile @Nullable String jobId;

  @Setup
  public void setUp(PipelineOptions options) {
    TidemarkOptions tidemark = options.as(TidemarkOptions.class);
    String client = tidemark.getClientLifeline();
    if (client != null) {
      following =
          PipelineRun.daemon(
              () -> follow(client, tidemark.getJobName(), tidemark.getFlinkMaster()),
              "tidemark-client-lifeline");
    }
  }

  /** The step beside this one writes the element. */
  @ProcessElement
  public void process() {}

  @Teardown
  public void tearDown() throws IOException {
    if (following != null) {
      following.interrupt();
    }
    Socket open = connection;
    if (open != null) {
      open.close();
    }
  }

  private void follow(String client, String jobName, String master) {
    int colon = client.lastIndexOf(':');
    try (Socket socket = new Socket()) {
      connection = socket;
      try {
        socket.connect(
            new InetSocketAddress(
                client.substring(0, colon), Integer.parseInt(client.substring(colon + 1))),
            (int) ClientLifeline.SILENCE.toMillis());
      } catch (IOException e) {
        LOG.warn(
            "cannot reach the tidemark client at {} that waits for this job ({}): if it goes, this"
                + " log will not say so ({})",
            client,
            jobName,
            e.getMessage());
        return;
      }
      String gone = untilGone(socket);
      if (gone != null && !Thread.currentThread().isInterrupted()) {
        LOG.warn(goneLine(client, gone, jobName, master, jobId));
      }
    } catch (IOException e) {
      // Closing the connection as the step ends.
    }
  }

  /**
   * Reads the client's lines until it says {@code bye} (null), or is gone: then how it went. The
   * step's end closes the connection, which ends the reading too.
   */
  private @Nullable String untilGone(Socket socket) {
    try {
      socket.setSoTimeout((int) ClientLifeline.SILENCE.toMillis());
      BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.equals(ClientLifeline.BYE)) {
          return null;
        }
        if (line.startsWith(ClientLifeline.JOB)) {
          jobId = line.substring(ClientLifeline.JOB.length());
        }
      }
      return "closed its connection without a word";
    } catch (SocketTimeoutException e) {
      return "has not been heard from for " + ClientLifeline.SILENCE.toSeconds() + " s";
    } catch (IOException e) {
      return Thread.currentThread().isInterrupted()
          ? null
          : "lost its connection (" + e.getMessage() + ")";
    }
  }

  /** What the job says when its client has gone: which client, and how to cancel the job. */
  static String goneLine(
      String client, String gone, String jobName, String master, @Nullable String jobId) {
    String cancel =
        jobId == null
            ? "find its id under that name with `curl http://" + master + "/jobs/overview`"
            : "cancel it with `flink cancel -m "
                + master
                + " "
                + jobId
                + "` or `curl -X PATCH 'http://"
                + master
                + "/jobs/"
                + jobId
                + "?mode=cancel'`";
    return "the tidemark client that submitted job "
        + (jobId == null ? "" : jobId + " ")
        + "("
        + jobName
        + ") and waited for it, at "
        + client
        + ", "
        + gone
        + ": the job runs on without it, listed under its name in the Web UI of "
        + master
        + "; "
        + cancel;
  }
}
