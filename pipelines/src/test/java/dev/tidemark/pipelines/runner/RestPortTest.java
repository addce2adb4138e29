package dev.tidemark.pipelines.runner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RestPortTest {

  /**
   * (1) This machine says where its ephemeral range starts (the suite runs on Linux); (2) every
   * port chosen lies below it, where no outgoing connection takes it, and (3) can be bound.
   */
  @Test
  void choosesAFreePortBelowTheEphemeralRange() throws IOException {
    OptionalInt ephemeral = RestPort.ephemeralRangeStart();
    assertThat("the ephemeral range is known", ephemeral.isPresent(), equalTo(true));
    for (int i = 0; i < 20; i++) {
      int port = RestPort.choose();
      assertThat(port, greaterThanOrEqualTo(RestPort.LOWEST));
      assertThat(port, lessThan(ephemeral.getAsInt()));
      try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(bound.getLocalPort(), equalTo(port));
      }
    }
  }
}
