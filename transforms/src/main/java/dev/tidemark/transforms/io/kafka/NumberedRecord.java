package dev.tidemark.transforms.io.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.KV;

/**
 * A record of {@link WriteKafkaInTransactions} with its number in its shard, and the run that
 * numbered it.
 */
record NumberedRecord<K, V>(String runId, long sequence, KV<K, V> record) {

  /** Encodes the run id, the number and the record with the record's own coder. */
  static final class NumberedRecordCoder<K, V> extends StructuredCoder<NumberedRecord<K, V>> {
    private final KvCoder<K, V> recordCoder;

    private NumberedRecordCoder(KvCoder<K, V> recordCoder) {
      this.recordCoder = recordCoder;
    }

    static <K, V> NumberedRecordCoder<K, V> of(KvCoder<K, V> recordCoder) {
      return new NumberedRecordCoder<>(recordCoder);
    }

    @Override
    public void encode(NumberedRecord<K, V> numbered, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(numbered.runId(), out);
      VarLongCoder.of().encode(numbered.sequence(), out);
      recordCoder.encode(numbered.record(), out);
    }

    @Override
    public NumberedRecord<K, V> decode(InputStream in) throws IOException {
      return new NumberedRecord<>(
          StringUtf8Coder.of().decode(in), VarLongCoder.of().decode(in), recordCoder.decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(recordCoder);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      recordCoder.verifyDeterministic();
    }
  }
}
