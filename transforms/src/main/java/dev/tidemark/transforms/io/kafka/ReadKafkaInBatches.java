package dev.tidemark.transforms.io.kafka;

import dev.tidemark.transforms.io.BatchingUnboundedSource;
import dev.tidemark.transforms.model.SourceBatch;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.options.ExperimentalOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * A {@link KafkaIO.Read}'s records in {@link SourceBatch}es ({@link BatchingUnboundedSource}): the
 * same records, timestamps, watermarks, checkpoints and offset commits as the read itself, in
 * batches, so the runner's per-element cost of a source is paid once per batch, and a step can
 * aggregate a batch's records whose windows its watermark bound keeps open.
 *
 * <pre>{@code
 * PCollection<SourceBatch<KafkaRecord<K, V>>> batches =
 *     begin.apply("ReadKafka", ReadKafkaInBatches.of(KafkaIO.<K, V>read()...));
 * }</pre>
 *
 * <p>It always reads through KafkaIO's {@code UnboundedSource} (Beam's legacy read), which is what
 * the FlinkRunner runs anyway. KafkaIO keeps that source to itself; it is taken from the {@code
 * Read.Unbounded} that the read expands into, in a pipeline of its own that is never run. That is
 * Beam's public API only, and the read is expanded exactly as Beam would expand it.
 */
public final class ReadKafkaInBatches<K, V>
    extends PTransform<PBegin, PCollection<SourceBatch<KafkaRecord<K, V>>>> {

  /** Records in one batch at most. */
  public static final int MAX_RECORDS = 512;

  private final KafkaIO.Read<K, V> read;

  private ReadKafkaInBatches(KafkaIO.Read<K, V> read) {
    this.read = read;
  }

  public static <K, V> ReadKafkaInBatches<K, V> of(KafkaIO.Read<K, V> read) {
    return new ReadKafkaInBatches<>(read);
  }

  @Override
  public PCollection<SourceBatch<KafkaRecord<K, V>>> expand(PBegin begin) {
    return readInBatches(begin, unboundedSourceOf(read));
  }

  private static <T, CheckpointT extends UnboundedSource.CheckpointMark>
      PCollection<SourceBatch<T>> readInBatches(
          PBegin begin, UnboundedSource<T, CheckpointT> source) {
    return begin.apply("ReadBatches", Read.from(BatchingUnboundedSource.of(source, MAX_RECORDS)));
  }

  /** The {@code UnboundedSource} that {@code read} reads, from a pipeline that is never run. */
  private static <K, V> UnboundedSource<KafkaRecord<K, V>, ?> unboundedSourceOf(
      KafkaIO.Read<K, V> read) {
    ExperimentalOptions options = PipelineOptionsFactory.as(ExperimentalOptions.class);
    ExperimentalOptions.addExperiment(options, "use_deprecated_read");
    Pipeline expansion = Pipeline.create(options);
    expansion.apply(read);
    List<UnboundedSource<?, ?>> found = new ArrayList<>();
    expansion.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            if (node.getTransform() instanceof Read.Unbounded<?> unbounded) {
              found.add(unbounded.getSource());
              return CompositeBehavior.DO_NOT_ENTER_TRANSFORM;
            }
            return CompositeBehavior.ENTER_TRANSFORM;
          }

          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            if (node.getTransform() instanceof Read.Unbounded<?> unbounded) {
              found.add(unbounded.getSource());
            }
          }
        });
    if (found.size() != 1) {
      throw new IllegalStateException(
          "KafkaIO's read expanded into " + found.size() + " unbounded sources, not one");
    }
    @SuppressWarnings("unchecked") // the read's own source: its output is the read's output
    UnboundedSource<KafkaRecord<K, V>, ?> source =
        (UnboundedSource<KafkaRecord<K, V>, ?>) found.get(0);
    return source;
  }
}
