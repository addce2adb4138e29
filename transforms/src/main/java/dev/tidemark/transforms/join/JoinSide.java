package dev.tidemark.transforms.join;

import dev.tidemark.transforms.model.DeadLetter;
import dev.tidemark.transforms.model.Event;
import dev.tidemark.transforms.model.EventKey;
import dev.tidemark.transforms.model.SourceBatch;
import dev.tidemark.transforms.windowing.AggregateInput;
import dev.tidemark.transforms.windowing.RecordParser;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.SimpleFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * One side of a {@link LeftJoinPerWindow#ofSides}, as its source gives it: events, or batches of
 * raw records that the step gathering them parses, as a batching source (Kafka) reads them. A side
 * of batches has no step of its own between its source and the join's shuffle, so, on Flink, it
 * does not hold the watermark back while its source reads a backlog ({@code RecordParser} says
 * why).
 */
public abstract class JoinSide {

  /** The join's records, keyed, each with the number of its side. */
  static final KvCoder<EventKey, KV<Integer, Event>> SIDED_CODER =
      KvCoder.of(EventKey.Coder.of(), KvCoder.of(VarIntCoder.of(), Event.Coder.of()));

  private JoinSide() {}

  /** A side of events, each at its event time. */
  public static JoinSide events(PCollection<Event> events) {
    return new JoinSide() {
      @Override
      AggregateInput<EventKey, KV<Integer, Event>, DeadLetter> input(String name, int side) {
        return AggregateInput.values(
            name,
            events.apply("Key" + name, MapElements.via(new SidedFn(side))).setCoder(SIDED_CODER));
      }
    };
  }

  /**
   * A side of batches of raw records, each parsed into an event by {@code parser} where its batch
   * is gathered; the records it rejects go to {@link LeftJoinPerWindow#REJECTED}.
   */
  public static <RecordT> JoinSide batches(
      PCollection<SourceBatch<RecordT>> batches, RecordParser<RecordT, Event, DeadLetter> parser) {
    return new JoinSide() {
      @Override
      AggregateInput<EventKey, KV<Integer, Event>, DeadLetter> input(String name, int side) {
        return AggregateInput.batches(
            name, batches, parser, Event::key, event -> KV.of(side, event));
      }
    };
  }

  /** An event keyed by its key, with the number of its side. */
  private static final class SidedFn
      extends SimpleFunction<Event, KV<EventKey, KV<Integer, Event>>> {
    private final int side;

    SidedFn(int side) {
      this.side = side;
    }

    @Override
    public KV<EventKey, KV<Integer, Event>> apply(Event event) {
      return KV.of(event.key(), KV.of(side, event));
    }
  }

  /**
   * The side as an input of the join's aggregation, named {@code name}, its records {@code side}.
   */
  abstract AggregateInput<EventKey, KV<Integer, Event>, DeadLetter> input(String name, int side);
}
