package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JvmRecordingsTest {

  private static final Path DIRECTORY = Path.of("/runs");

  @Test
  void startsNoRecordingUnlessAskedAndReadsNoCompilations() throws Exception {
    JvmRecordings none = new JvmRecordings(Optional.empty(), Optional.empty());

    assertThat(none.jvmOptions(DIRECTORY, "steady-1"), empty());
    assertThat(
        none.compilations(DIRECTORY, "steady-1", Instant.EPOCH, Instant.now()),
        equalTo(Optional.empty()));
  }

  @Test
  void startsTheProfileAndTheCompilationsEachIntoAFileNamedAfterTheTopic() {
    JvmRecordings both =
        new JvmRecordings(Optional.of("profile"), Optional.of(Path.of("/runs/compilations.jfc")));

    assertThat(
        both.jvmOptions(DIRECTORY, "steady-1"),
        contains(
            "-XX:StartFlightRecording=filename=/runs/steady-1.jfr,settings=profile",
            "-XX:StartFlightRecording=name=compilations,filename=/runs/steady-1-compilations.jfr,"
                + "settings=/runs/compilations.jfc"));
  }
}
