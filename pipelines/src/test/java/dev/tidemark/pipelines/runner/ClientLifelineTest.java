package dev.tidemark.pipelines.runner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The client's end of the line to its job, over real loopback sockets: a connection hears the
 * client is there at once, then the job's id as soon as the client knows it, and {@code bye} before
 * the line closes when the client ends on purpose. A killed client's line closes without {@code
 * bye}: {@code FlinkClusterIT} kills one and reads what its job says.
 */
class ClientLifelineTest {

  @Test
  void aConnectionHearsTheClientThenTheJobsIdThenByeWhenTheClientEndsOnPurpose() throws Exception {
    try (ServerSocket master = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ClientLifeline lifeline =
            ClientLifeline.open("127.0.0.1:" + master.getLocalPort()).orElseThrow();
        Socket job = new Socket()) {
      String[] address = lifeline.address().split(":");
      assertThat(address[0], equalTo("127.0.0.1"));
      job.connect(new InetSocketAddress(address[0], Integer.parseInt(address[1])));
      job.setSoTimeout(10_000);
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(job.getInputStream(), StandardCharsets.UTF_8));

      assertThat(lines.readLine(), equalTo(ClientLifeline.ALIVE));
      lifeline.jobIs("0123abcd");
      String line = lines.readLine();
      while (line.equals(ClientLifeline.ALIVE)) {
        line = lines.readLine();
      }
      assertThat(line, equalTo("job 0123abcd"));
      lifeline.close();
      line = lines.readLine();
      while (line.startsWith(ClientLifeline.JOB)) {
        line = lines.readLine();
      }
      assertThat(line, equalTo(ClientLifeline.BYE));
      assertThat(lines.readLine(), nullValue());
    }
  }

  @Test
  void aClusterThatCannotBeReachedGivesNoLine() throws Exception {
    int closedPort;
    try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      closedPort = gone.getLocalPort();
    }
    assertThat(ClientLifeline.open("127.0.0.1:" + closedPort).isPresent(), equalTo(false));
  }
}
