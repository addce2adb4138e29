package dev.tidemark.examples;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

import org.junit.jupiter.api.Test;

/**
 * The library guide shows {@link ClickStats} and {@link ClickStatsTest} as they are: this fails
 * when the guide and the code part ways.
 */
class ClickStatsGuideTest {

  @Test
  void theGuideShowsTheExampleAndItsTest() throws Exception {
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(ClickStats.class, "GUIDE-OWN-TYPE-START", "GUIDE-OWN-TYPE-END")));
    assertThat(
        GuideBlocks.guide(),
        containsString(
            GuideBlocks.between(
                ClickStatsTest.class, "GUIDE-OWN-TYPE-TEST-START", "GUIDE-OWN-TYPE-TEST-END")));
  }
}
