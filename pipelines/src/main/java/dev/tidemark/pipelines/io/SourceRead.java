package dev.tidemark.pipelines.io;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.parse.ParseEvents;
import dev.tidemark.transforms.windowing.RecordParser;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;

/**
 * How a source's records reach the step that decides their panes: parsed by the source's own
 * transform ({@link Parsed}), or read in batches whose records the counting step parses as it
 * gathers them before the shuffle ({@link Batches}), so that on Flink no step between the source
 * and the shuffle holds back the watermark ({@link RecordParser} says why).
 */
public sealed interface SourceRead {

  /**
   * The events one by one, each at its event time, and the dead letters: a transform from a
   * pipeline's beginning to {@code ParseEvents.EVENTS} and {@code ParseEvents.DEAD_LETTER}, for a
   * step that takes events (a join).
   */
  PTransform<PBegin, PCollectionTuple> events();

  /** A source whose own transform parses. */
  record Parsed(PTransform<PBegin, PCollectionTuple> events) implements SourceRead {}

  /** A transform that reads batches of raw records, and the parse of each record. */
  record Batches<RecordT>(
      PTransform<PBegin, PCollection<SourceBatch<RecordT>>> batches, ParseEvents<RecordT> parse)
      implements SourceRead {

    /** The parse that the counting step runs on each record as it gathers a batch. */
    public RecordParser<RecordT, Event, DeadLetter> parser() {
      return parse.inTheGatheringStep();
    }

    /** The batches read, then each record parsed in a step of its own. */
    @Override
    public PTransform<PBegin, PCollectionTuple> events() {
      return new PTransform<PBegin, PCollectionTuple>() {
        @Override
        public PCollectionTuple expand(PBegin begin) {
          return begin.apply("Read", batches).apply("Parse", parse.inBatches());
        }
      };
    }
  }
}
