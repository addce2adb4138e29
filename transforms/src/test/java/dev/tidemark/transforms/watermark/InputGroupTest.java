package dev.tidemark.transforms.watermark;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tidemark.transforms.watermark.IdleAwareWatermark.Activity;
import java.util.Optional;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** What {@link InputGroup} adds to the rule: siblings, and members whose reader is gone. */
class InputGroupTest {

  private static final Duration IDLE = Duration.standardSeconds(5);
  private static final Instant START = new Instant(1_800_000_000_000L);
  private static final Instant HISTORY = new Instant(1586489566000L);

  private final InputGroup<String> group =
      new InputGroup<>(IdleAwareWatermark.emptyFollowsWallClock(Duration.ZERO, IDLE));

  @Test
  void memberWhoseReaderIsGoneStopsHoldingBackItsSiblings() {
    group.join("gone", Optional.empty(), START);
    group.join("idle", Optional.empty(), START);
    // (1) "gone" was active with a backlog when its reader closed; "idle" had one record.
    group.observe("gone", HISTORY, START);
    assertThat(group.watermark("gone", START, false), equalTo(HISTORY.minus(1)));
    group.observe("idle", HISTORY.plus(60_000), START);
    // (2) While "gone" could still be alive, "idle" follows it.
    Instant soon = START.plus(IDLE).plus(1000);
    assertThat(group.watermark("idle", soon, true), equalTo(HISTORY.minus(1)));
    assertThat(group.activity("idle"), equalTo(Activity.IDLE));
    // (3) Once "gone" has not asked for the idle timeout plus the stale margin, it no longer
    // counts: "idle" advances at the wall clock's pace from its own last record.
    Instant later = START.plus(IDLE).plus(InputGroup.STALE_AFTER).plus(1000);
    assertThat(
        group.watermark("idle", later, true),
        equalTo(HISTORY.plus(60_000 - 1).plus(new Duration(START, later))));
  }

  @Test
  void aHandleRecordsForItsInputAsTheKeyDoes() {
    group.join("a", Optional.empty(), START);
    InputGroup<String>.Input a = group.input("a");
    a.observe(HISTORY, START);
    assertThat(group.watermark("a", START, false), equalTo(HISTORY.minus(1)));
    // A reader re-created for the input joins again; the handle still records for it.
    group.join("a", Optional.empty(), START);
    a.observe(HISTORY.plus(5000), START);
    assertThat(group.watermark("a", START, false), equalTo(HISTORY.plus(4999)));
  }

  @Test
  void inputThatHasNotJoinedIsAnError() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> group.watermark("stranger", START, true));
    assertThat(e.getMessage(), equalTo("stranger has not joined this group of inputs"));
    assertThrows(IllegalStateException.class, () -> group.input("stranger"));
  }
}
