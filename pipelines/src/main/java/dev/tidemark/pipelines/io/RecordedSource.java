package dev.tidemark.pipelines.io;

import dev.tidemark.pipelines.config.ConfigurationException;
import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.io.RecordedLines;
import dev.tidemark.transforms.parse.EventFormat;
import dev.tidemark.transforms.parse.JsonEventFormat;
import dev.tidemark.transforms.parse.JsonFieldText;
import dev.tidemark.transforms.replay.Replay;
import java.util.Optional;
import org.joda.time.Duration;

/**
 * {@code file:}, {@code generator:} and {@code sample:}: a recording, replayed as a live run with
 * the same arrival order would see it ({@link Replay}).
 */
final class RecordedSource implements Source {

  /** How often a replay says how far it has got, on stderr. */
  static final Duration PROGRESS_EVERY = Duration.standardSeconds(5);

  private final RecordedLines lines;
  private final double linesPerSecond;

  RecordedSource(RecordedLines lines, double linesPerSecond) {
    this.lines = lines;
    this.linesPerSecond = linesPerSecond;
  }

  @Override
  public String describe() {
    return lines.describe();
  }

  @Override
  public boolean isRecording() {
    return true;
  }

  @Override
  public Optional<Replay> replay(EventFormat format, EventTimeSettings settings) {
    Replay replay =
        Replay.of(lines, format)
            .withMaxOutOfOrderness(settings.maxOutOfOrderness())
            .withMaxFutureSkew(settings.maxFutureSkew())
            .withRate(linesPerSecond)
            .withProgressEvery(PROGRESS_EVERY);
    String partitionField = settings.partitionField();
    if (partitionField == null) {
      return Optional.of(replay);
    }
    if (!(format instanceof JsonEventFormat)) {
      throw new ConfigurationException(
          "--partitionField: only JSON records have named fields; use --format=json");
    }
    return Optional.of(
        replay.withPartitions(JsonFieldText.of(partitionField), settings.partitionIdleGap()));
  }

  @Override
  public SourceRead read(EventFormat format, EventTimeSettings settings) {
    return new SourceRead.Parsed(replay(format, settings).orElseThrow().readAndParse());
  }
}
