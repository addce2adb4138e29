package dev.tidemark.transforms.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * Records a source read together ({@code io.BatchingUnboundedSource}), each with its timestamp, and
 * {@link #watermarkBound()}: no watermark that a step downstream can have met before this batch's
 * records reached it is later than that bound.
 *
 * <p>Why it holds on the FlinkRunner: the source's watermark is read between elements, on the
 * thread that reads them, and never goes back, and a channel delivers watermarks and elements in
 * the order they were sent; the bound is the highest watermark the reader had given before the
 * batch, so every watermark sent before the batch is at most the bound, and every one sent after it
 * comes after its records. (For the first batch of a reader, the bound is its watermark at the
 * first record: a reader restored from a checkpoint starts from the watermark the steps downstream
 * had met.) On the DirectRunner a pending element also holds back the watermark of the step it
 * waits for.
 *
 * <p>The bound leaves out what the batch's own records move the watermark by: a step may count a
 * record whose window ends after the bound as on time before it reaches the step that judges it,
 * and that is every record of a batch but those out of order by more than the watermark allows,
 * however many records the batch holds.
 *
 * @param records the records, in the order they were read
 * @param watermarkBound the highest watermark the source had given before the batch
 */
public record SourceBatch<T>(List<TimestampedValue<T>> records, Instant watermarkBound) {

  /** The coder of a batch, from the coder of a record. */
  public static final class SourceBatchCoder<T> extends StructuredCoder<SourceBatch<T>> {
    private final Coder<T> recordCoder;
    private final ListCoder<TimestampedValue<T>> recordsCoder;

    private SourceBatchCoder(Coder<T> recordCoder) {
      this.recordCoder = recordCoder;
      this.recordsCoder = ListCoder.of(TimestampedValue.TimestampedValueCoder.of(recordCoder));
    }

    /** The coder of one record. */
    public Coder<T> recordCoder() {
      return recordCoder;
    }

    public static <T> SourceBatchCoder<T> of(Coder<T> recordCoder) {
      return new SourceBatchCoder<>(recordCoder);
    }

    @Override
    public void encode(SourceBatch<T> batch, OutputStream out) throws IOException {
      recordsCoder.encode(batch.records(), out);
      InstantCoder.of().encode(batch.watermarkBound(), out);
    }

    @Override
    public SourceBatch<T> decode(InputStream in) throws IOException {
      return new SourceBatch<>(recordsCoder.decode(in), InstantCoder.of().decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(recordsCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      recordsCoder.verifyDeterministic();
    }
  }
}
