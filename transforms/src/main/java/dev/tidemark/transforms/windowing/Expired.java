package dev.tidemark.transforms.windowing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A value that arrived after its window had expired, captured instead of dropped: the value, its
 * event time, its window and the watermark that judged it, and so how late it was. The one late
 * type of every tidemark step, live or replayed: a user's own values ({@code AggregatePerWindow},
 * {@code RecordReplay}) and tidemark's own events ({@code Expired<Event>}: {@code
 * CountPerWindow.LATE}), whose event carries its key, its text and, from Kafka, where it was.
 *
 * @param <V> the value's type
 */
@DefaultCoder(Expired.ExpiredCoder.class)
public record Expired<V>(V value, Instant eventTime, IntervalWindow window, Instant watermark) {

  public Expired {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(watermark, "watermark");
  }

  /** How far behind the watermark that judged it the value's event time was. */
  public Duration lateBy() {
    return new Duration(eventTime, watermark);
  }

  /** The coder of {@link Expired}, from the coder of its value. */
  public static final class ExpiredCoder<V> extends StructuredCoder<Expired<V>> {
    private final Coder<V> valueCoder;

    private ExpiredCoder(Coder<V> valueCoder) {
      this.valueCoder = valueCoder;
    }

    public static <V> ExpiredCoder<V> of(Coder<V> valueCoder) {
      return new ExpiredCoder<>(valueCoder);
    }

    /** How {@link DefaultCoder} finds this coder, from the coder of the value. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.fromStaticMethods(Expired.class, ExpiredCoder.class);
    }

    @Override
    public void encode(Expired<V> expired, OutputStream out) throws IOException {
      valueCoder.encode(expired.value(), out);
      InstantCoder.of().encode(expired.eventTime(), out);
      IntervalWindow.getCoder().encode(expired.window(), out);
      InstantCoder.of().encode(expired.watermark(), out);
    }

    @Override
    public Expired<V> decode(InputStream in) throws IOException {
      return new Expired<>(
          valueCoder.decode(in),
          InstantCoder.of().decode(in),
          IntervalWindow.getCoder().decode(in),
          InstantCoder.of().decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(valueCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(this, "the value must encode deterministically", valueCoder);
    }
  }
}
