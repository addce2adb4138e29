package dev.tidemark.transforms.io.kafka;

import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Numbers each shard's records 0, 1, 2, ... in its state, with the run id kept there too: the step
 * of {@link WriteKafkaInTransactions} before the stable input.
 *
 * <p>The numbers are consistent with every checkpoint: a record numbered before a checkpoint's
 * barrier is in that checkpoint (in the writer's stable-input buffer) with the state that numbered
 * it, and a record numbered after it is numbered again after a restore, never having been written.
 * The run id is the construction's for a shard with no state yet, and the restored one after a
 * restore from a checkpoint or a savepoint.
 */
final class NumberPerShardFn<K, V>
    extends DoFn<KV<Integer, KV<K, V>>, KV<Integer, NumberedRecord<K, V>>> {

  private static final long serialVersionUID = 1L;

  private final String runIdOfANewJob;

  @StateId("runId")
  private final StateSpec<ValueState<String>> runIdSpec = StateSpecs.value(StringUtf8Coder.of());

  @StateId("nextSequence")
  private final StateSpec<ValueState<Long>> nextSequenceSpec = StateSpecs.value(VarLongCoder.of());

  NumberPerShardFn(String runIdOfANewJob) {
    this.runIdOfANewJob = runIdOfANewJob;
  }

  @ProcessElement
  public void processElement(
      @Element KV<Integer, KV<K, V>> element,
      @StateId("runId") ValueState<String> runIdState,
      @StateId("nextSequence") ValueState<Long> nextSequence,
      OutputReceiver<KV<Integer, NumberedRecord<K, V>>> out) {
    String runId = runIdState.read();
    if (runId == null) {
      runId = runIdOfANewJob;
      runIdState.write(runId);
    }
    Long next = nextSequence.read();
    long sequence = next == null ? 0 : next;
    nextSequence.write(sequence + 1);
    out.output(KV.of(element.getKey(), new NumberedRecord<>(runId, sequence, element.getValue())));
  }
}
