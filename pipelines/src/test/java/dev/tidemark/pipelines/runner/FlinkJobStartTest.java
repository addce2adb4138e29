package dev.tidemark.pipelines.runner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** How a starting job is judged out of slots, from the REST API's answers as Flink gives them. */
class FlinkJobStartTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void tasksWaitingForASlotOnAFullClusterAreOutOfSlots() throws Exception {
    JobStart start =
        FlinkJob.starting(
            json("{\"SCHEDULED\": 2, \"RUNNING\": 0}"),
            json("{\"slots-available\": 0, \"slots-total\": 4}"));

    assertThat(start.phase(), equalTo(JobStart.Phase.STARTING));
    assertThat(start.outOfSlots(), equalTo(true));
    assertThat(
        start.why(),
        equalTo(
            "2 of its 2 tasks wait to be deployed, 2 of them for a slot; the cluster has 0 free"
                + " slots of 4"));
  }

  @Test
  void tasksBeingDeployedHaveTheirSlotsThoughNoneIsFree() throws Exception {
    // (1) Deployed to the slots they have, on a cluster whose last slots they took.
    assertThat(
        FlinkJob.starting(
                json("{\"DEPLOYING\": 1, \"INITIALIZING\": 1}"),
                json("{\"slots-available\": 0, \"slots-total\": 4}"))
            .outOfSlots(),
        equalTo(false));
    // (2) Waiting for a slot while one is free: the cluster is about to give it.
    assertThat(
        FlinkJob.starting(
                json("{\"CREATED\": 2}"), json("{\"slots-available\": 1, \"slots-total\": 4}"))
            .outOfSlots(),
        equalTo(false));
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }
}
