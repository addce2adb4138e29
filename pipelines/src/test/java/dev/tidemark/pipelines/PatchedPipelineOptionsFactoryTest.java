package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import dev.tidemark.pipelines.cli.StartupArchive;
import dev.tidemark.pipelines.cli.Tidemark;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.util.ReleaseInfo;
import org.junit.jupiter.api.Test;

/**
 * tidemark's copy of Beam's {@link PipelineOptionsFactory} (see the header of its source): that it
 * is the class loaded, that it was copied from the Beam in use, and that its cheaper method order
 * keeps what Beam's meant. {@link OptionsRegistryTest} checks its registry.
 */
class PatchedPipelineOptionsFactoryTest {

  /** The Beam release the copy was made from. */
  private static final String COPIED_FROM = "2.70.0";

  @Test
  void isCopiedFromTheBeamInUse() {
    assertThat(
        "pipelines/src/main/java/org/apache/beam/sdk/options/PipelineOptionsFactory.java is Beam "
            + COPIED_FROM
            + "'s with two changes: copy the new version's class and make the same changes, or"
            + " delete the copy if Beam has them by then",
        ReleaseInfo.getReleaseInfo().getSdkVersion(),
        equalTo(COPIED_FROM));
  }

  @Test
  void theCopyIsTheClassLoaded() {
    assertThat(
        PipelineOptionsFactory.class.getProtectionDomain().getCodeSource().getLocation(),
        equalTo(Tidemark.class.getProtectionDomain().getCodeSource().getLocation()));
  }

  /**
   * Beam sorted methods by {@code toGenericString()}. The copy sorts by name first: a different
   * order between methods of different names, which only lists in error messages follow, but the
   * same methods equal, and the same order among methods of one name, which decides which of them
   * Beam's validation keeps. Checked on every pair of methods of every registered interface and of
   * tidemark's, and all they extend.
   */
  @Test
  void methodOrderKeepsBeamsEqualityAndItsOrderAmongMethodsOfOneName() throws Exception {
    Comparator<Method> copy = methodComparator();
    List<Method> methods = new ArrayList<>(registeredMethods());
    List<String> genericStrings = new ArrayList<>();
    methods.forEach(method -> genericStrings.add(method.toGenericString()));
    int sameNamePairs = 0;
    for (int i = 0; i < methods.size(); i++) {
      for (int j = 0; j < methods.size(); j++) {
        Method a = methods.get(i);
        Method b = methods.get(j);
        int beams = Integer.signum(genericStrings.get(i).compareTo(genericStrings.get(j)));
        int copys = Integer.signum(copy.compare(a, b));
        assertThat(a + " vs " + b, copys == 0, equalTo(beams == 0));
        if (i != j && a.getName().equals(b.getName())) {
          sameNamePairs++;
          assertThat(a + " vs " + b, copys, equalTo(beams));
        }
      }
    }
    // Methods of one name in several interfaces (getWindowSize, getMaxOutOfOrderness and their
    // setters: count, metrics and join each declare them) are what the order among them is about;
    // without them the check above would prove nothing.
    assertThat(sameNamePairs, greaterThan(0));
  }

  /** Every method Beam validates for tidemark's commands: theirs, and those they inherit. */
  private static Set<Method> registeredMethods() {
    List<Class<?>> interfaces = new ArrayList<>(PipelineOptionsFactory.getRegisteredOptions());
    interfaces.addAll(
        List.of(
            CountPipeline.Options.class,
            MetricsPipeline.Options.class,
            JoinPipeline.Options.class,
            ExplainRecording.Options.class,
            StartupArchive.Options.class));
    Set<Method> methods = new LinkedHashSet<>();
    while (!interfaces.isEmpty()) {
      Class<?> options = interfaces.remove(interfaces.size() - 1);
      methods.addAll(List.of(options.getDeclaredMethods()));
      interfaces.addAll(List.of(options.getInterfaces()));
    }
    return methods;
  }

  @SuppressWarnings("unchecked")
  private static Comparator<Method> methodComparator() throws ReflectiveOperationException {
    Field instance =
        Class.forName(PipelineOptionsFactory.class.getName() + "$MethodComparator")
            .getDeclaredField("INSTANCE");
    instance.setAccessible(true);
    return (Comparator<Method>) instance.get(null);
  }
}
