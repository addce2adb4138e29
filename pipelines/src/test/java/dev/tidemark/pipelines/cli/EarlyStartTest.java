package dev.tidemark.pipelines.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which command lines start their cluster before Beam parses them: only those whose run is
 * tidemark's embedded one, whatever else they say.
 */
class EarlyStartTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "tidemark's defaults | --runner=FlinkRunner --flinkMaster=[local] | true",
        "with a parallelism | --runner=FlinkRunner --flinkMaster=[local] --parallelism=4 | true",
        "with a pipeline's options | --source=sample: --windowSize=5s --runner=FlinkRunner | true",
        "an option named like the runner | --runner=FlinkRunner --runnerOptionOfAnother=x | true",
        "the DirectRunner | --runner=DirectRunner --flinkMaster=[local] | false",
        "a runner by its class | --runner=org.apache.beam.runners.flink.FlinkRunner | false",
        "a cluster | --runner=FlinkRunner --flinkMaster=localhost:8081 | false",
        "Flink's own choice | --runner=FlinkRunner --flinkMaster=[auto] | false",
        "a user's flink-conf.yaml | --flinkMaster=[local] --flinkConfDir=/etc/flink | false",
        "the Web UI | --runner=FlinkRunner --flinkMaster=[local] --webUi=8081 | false",
      })
  void startsOnlyTidemarksEmbeddedRunEarly(String name, String args, boolean early) {
    assertThat(EarlyStart.askForTidemarksEmbeddedRun(args.split(" ")), equalTo(early));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "given | --source=sample: --parallelism=3 | 3",
        "given twice, the last | --parallelism=3 --parallelism=1 | 1",
      })
  void readsTheParallelism(String name, String args, int parallelism) {
    assertThat(EarlyStart.parallelism(args.split(" ")), equalTo(parallelism));
  }

  @Test
  void leavesAParallelismNotGivenToFlink() {
    assertThat(EarlyStart.parallelism(new String[] {"--source=sample:"}), nullValue());
  }
}
