package dev.tidemark.transforms.replay;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.tidemark.transforms.io.GeneratedLines;
import dev.tidemark.transforms.io.ReplaySource;
import dev.tidemark.transforms.parse.CsvEventFormat;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.JsonFieldText;
import dev.tidemark.transforms.testing.InMemoryLines;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.util.CoderUtils;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The replay's checkpoints: a restored reader must go on where the checkpointed one stopped; and
 * what its steps send each other keeps every field. (The coder of the state of its windows is
 * tested with the engine, in {@code PaneEngineTest}.)
 */
class ReplayStateCodersTest {

  @Test
  void restoredReplayGoesOnFromItsCheckpoint() throws Exception {
    ReplaySource source =
        ReplaySource.of(
            GeneratedLines.records(10).withKeys(1), CsvEventFormat.keyAndTime(), Duration.ZERO);
    UnboundedReader<?> first = source.createReader(PipelineOptionsFactory.create(), null);
    first.start();
    first.advance();
    first.advance();
    Coder<ReplaySource.Position> coder = source.getCheckpointMarkCoder();
    ReplaySource.Position mark =
        CoderUtils.clone(coder, (ReplaySource.Position) first.getCheckpointMark());

    UnboundedReader<?> restored = source.createReader(PipelineOptionsFactory.create(), mark);
    restored.start();
    first.advance();
    // (1) The restored reader reads the line the first one reads next, (2) at the same watermark.
    assertThat(restored.getCurrent(), equalTo(first.getCurrent()));
    assertThat(restored.getWatermark(), equalTo(first.getWatermark()));
    CoderProperties.coderSerializable(coder);
  }

  @Test
  void restoredPartitionedReplayGoesOnWithEveryPartitionsWatermark() throws Exception {
    // Partition "b" lags "a" by 3 s; the restored reader must know it, or its watermark jumps.
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      long t = 1_600_000_000_000L + i * 500L;
      lines.add("{\"k\":\"x\",\"t\":" + (t - 3000) + ",\"p\":\"b\"}");
      lines.add("{\"k\":\"x\",\"t\":" + t + ",\"p\":\"a\"}");
    }
    ReplaySource source =
        ReplaySource.of(
                new InMemoryLines(lines), JsonEventFormat.withKey("k").withTime("t"), Duration.ZERO)
            .withPartitions(JsonFieldText.of("p"), Duration.standardSeconds(10));
    UnboundedReader<?> first = source.createReader(PipelineOptionsFactory.create(), null);
    first.start();
    for (int i = 0; i < 10; i++) {
      first.advance();
    }
    ReplaySource.Position mark =
        CoderUtils.clone(
            source.getCheckpointMarkCoder(), (ReplaySource.Position) first.getCheckpointMark());
    UnboundedReader<?> restored = source.createReader(PipelineOptionsFactory.create(), mark);
    restored.start();
    first.advance();
    assertThat(restored.getCurrent(), equalTo(first.getCurrent()));
    assertThat(restored.getWatermark(), equalTo(first.getWatermark()));
    // Held by "b", 3 s behind "a".
    assertThat(
        first.getWatermark(), equalTo(new Instant(1_600_000_000_000L + 5 * 500L - 3000 - 1)));
  }

  @Test
  void aUsersRecordsTravelBetweenTheReplaysStepsWithTheirArrival() throws Exception {
    ArrivedRecord<String> record =
        new ArrivedRecord<>("click", new Instant(1_000L), new Instant(500L), 7L);
    ArrivedRecord.ArrivedRecordCoder<String> coder =
        new ArrivedRecord.ArrivedRecordCoder<>(StringUtf8Coder.of());
    CoderProperties.coderDecodeEncodeEqual(coder, record);
    CoderProperties.coderSerializable(coder);

    WindowRecords<ArrivedRecord<String>, Long> window = new WindowRecords<>(new Instant(0L), 3L);
    window.onTimeRecords = 3;
    window.lateWithinLateness.add(record);
    WindowRecords<ArrivedRecord<String>, Long> decoded =
        CoderUtils.clone(new WindowRecords.WindowRecordsCoder<>(coder, VarLongCoder.of()), window);
    assertThat(decoded.windowStart, equalTo(window.windowStart));
    assertThat(decoded.onTime, equalTo(3L));
    assertThat(decoded.onTimeRecords, equalTo(3L));
    assertThat(decoded.lateWithinLateness, equalTo(List.of(record)));
  }
}
