package dev.tidemark.transforms.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/**
 * Results of a running pipeline, visible to the test while the pipeline still runs: a sink for
 * in-process runners (DirectRunner, embedded Flink). {@code PAssert} only checks after the pipeline
 * has finished, and these tests must see a window fire while the source stays open.
 */
public final class Collected {

  private static final Map<String, List<String>> RESULTS = new ConcurrentHashMap<>();

  private final String id = UUID.randomUUID().toString();

  public Collected() {
    RESULTS.put(id, new CopyOnWriteArrayList<>());
  }

  /** A sink that appends every element, as a string, to this collection. */
  public PTransform<PCollection<String>, PDone> sink() {
    String target = id;
    return new PTransform<PCollection<String>, PDone>() {
      @Override
      public PDone expand(PCollection<String> input) {
        input.apply("Collect", ParDo.of(new CollectFn(target)));
        return PDone.in(input.getPipeline());
      }
    };
  }

  public List<String> snapshot() {
    return new ArrayList<>(RESULTS.get(id));
  }

  /** Waits up to {@code timeoutMillis} until {@code condition} holds; returns whether it did. */
  public boolean awaitUntil(Predicate<List<String>> condition, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (System.nanoTime() < deadline) {
      if (condition.test(snapshot())) {
        return true;
      }
      Thread.sleep(50);
    }
    return condition.test(snapshot());
  }

  private static final class CollectFn extends DoFn<String, Void> {
    private final String target;

    CollectFn(String target) {
      this.target = target;
    }

    @ProcessElement
    public void processElement(@Element String element) {
      RESULTS.get(target).add(element);
    }
  }
}
