package dev.tidemark.pipelines.steps;

import dev.tidemark.pipelines.io.PaneRules;
import dev.tidemark.pipelines.io.Source;
import dev.tidemark.pipelines.io.SourceRead;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.replay.Replay;
import dev.tidemark.transforms.windowing.CountPerWindow;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * A source's records counted, and summed, per key and window: {@code CountPerWindow.RESULTS},
 * {@code CountPerWindow.LATE} and {@code ParseEvents.DEAD_LETTER}. This is where a pipeline chooses
 * the rules that decide its panes, and says which ({@link PaneRules}):
 *
 * <ul>
 *   <li>a live source is read and parsed, then its events' panes are decided by the live rules
 *       ({@link CountPerWindow}), which judge each record by the watermark of the step that decides
 *       its window; a source that reads in batches (Kafka) gives batches of raw records, which the
 *       counting step parses as it gathers them, and whose records the batch's watermark bound
 *       proves on time it counts before the shuffle ({@link SourceRead.Batches});
 *   <li>a recording ({@link Source#replay}) is read, parsed and decided in one step with the
 *       replay's rules ({@link Replay#countPerWindow}): each record is judged by the watermark it
 *       met at its source, which only the reader knows, so reading and deciding are not separate.
 * </ul>
 */
public final class CountsOfSource extends PTransform<PBegin, PCollectionTuple> {

  private final PerWindowCounts.Settings settings;

  public CountsOfSource(PerWindowCounts.Settings settings) {
    this.settings = settings;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    Source source = settings.source();
    Optional<Replay> replay = source.replay(settings.format(), settings.eventTime());
    PaneRules.log(List.of(source), replay.isPresent(), settings.windowing(), settings.eventTime());
    if (replay.isPresent()) {
      return begin.apply("ReplayAndDecidePanes", replay.get().countPerWindow(settings.windowing()));
    }
    SourceRead read = source.read(settings.format(), settings.eventTime());
    if (read instanceof SourceRead.Batches<?> batches) {
      return decideBatches(begin, batches);
    }
    PCollectionTuple parsed = begin.apply("ReadAndParse", read.events());
    PCollectionTuple decided =
        parsed
            .get(ParseEvents.EVENTS)
            .apply("DecidePanes", CountPerWindow.of(settings.windowing()));
    return decided.and(ParseEvents.DEAD_LETTER, parsed.get(ParseEvents.DEAD_LETTER));
  }

  /** The batches read, then parsed, gathered and decided; the step names are the parsed path's. */
  private <RecordT> PCollectionTuple decideBatches(
      PBegin begin, SourceRead.Batches<RecordT> batches) {
    return begin
        .apply("ReadAndParse", batches.batches())
        .apply(
            "DecidePanes",
            CountPerWindow.ofBatchesParsedBy(
                settings.windowing(), batches.parser(), ParseEvents.DEAD_LETTER));
  }
}
