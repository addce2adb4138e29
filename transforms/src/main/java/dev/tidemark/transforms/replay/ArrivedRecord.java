package dev.tidemark.transforms.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.joda.time.Instant;

/**
 * A user's record as the replay's steps carry it: with its event time, the watermark it met at the
 * source and its line in the recording, which order it among the late records of its window.
 *
 * @param <T> the user's record
 */
record ArrivedRecord<T>(T value, Instant eventTime, Instant arrivalWatermark, long position) {

  /** The coder of {@link ArrivedRecord}, from the coder of the user's record. */
  static final class ArrivedRecordCoder<T> extends StructuredCoder<ArrivedRecord<T>> {
    private final Coder<T> valueCoder;

    ArrivedRecordCoder(Coder<T> valueCoder) {
      this.valueCoder = valueCoder;
    }

    @Override
    public void encode(ArrivedRecord<T> record, OutputStream out) throws IOException {
      valueCoder.encode(record.value(), out);
      InstantCoder.of().encode(record.eventTime(), out);
      InstantCoder.of().encode(record.arrivalWatermark(), out);
      VarLongCoder.of().encode(record.position(), out);
    }

    @Override
    public ArrivedRecord<T> decode(InputStream in) throws IOException {
      return new ArrivedRecord<>(
          valueCoder.decode(in),
          InstantCoder.of().decode(in),
          InstantCoder.of().decode(in),
          VarLongCoder.of().decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(valueCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      verifyDeterministic(this, "the record must encode deterministically", valueCoder);
    }
  }
}
