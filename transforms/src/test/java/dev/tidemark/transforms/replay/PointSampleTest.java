package dev.tidemark.transforms.replay;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import dev.tidemark.transforms.replay.ReplayTimeline.Kind;
import dev.tidemark.transforms.replay.ReplayTimeline.Point;
import java.util.List;
import java.util.stream.LongStream;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** The points a timeline keeps of each kind for its plot, and the count of all of them. */
class PointSampleTest {

  @Test
  void anEvenSampleKeepsEveryPointUpToItsLimit() {
    PointSample sample = PointSample.evenly(100);
    LongStream.rangeClosed(1, 100).forEach(line -> sample.offer(point(line)));

    assertThat(sample.offered(), equalTo(100L));
    assertThat(sample.kept().size(), equalTo(100));
  }

  @Test
  void anEvenSampleOfManyMoreStaysWithinItsLimitAndSpreadOverTheWholeRecording() {
    PointSample sample = PointSample.evenly(100);
    LongStream.rangeClosed(1, 10_000).forEach(line -> sample.offer(point(line)));

    List<Point> kept = sample.kept();
    assertThat(sample.offered(), equalTo(10_000L));
    assertThat(kept.size(), lessThanOrEqualTo(100));
    assertThat(kept.size(), greaterThan(50));
    assertThat("starts near the start", kept.get(0).line(), lessThan(200L));
    assertThat("ends near the end", kept.get(kept.size() - 1).line(), greaterThan(9_800L));
    long gap = kept.get(1).line() - kept.get(0).line();
    for (int i = 1; i < kept.size(); i++) {
      assertThat("evenly spaced", kept.get(i).line() - kept.get(i - 1).line(), equalTo(gap));
    }
  }

  @Test
  void theFirstKeepsTheFirstPointsAndCountsTheRest() {
    PointSample sample = PointSample.first(3);
    LongStream.rangeClosed(1, 10).forEach(line -> sample.offer(point(line)));

    assertThat(sample.offered(), equalTo(10L));
    assertThat(sample.kept().stream().map(Point::line).toList(), contains(1L, 2L, 3L));
  }

  private static Point point(long line) {
    return new Point(line, new Instant(line), new Instant(0), Kind.ON_TIME, "k", "clicks.csv");
  }
}
