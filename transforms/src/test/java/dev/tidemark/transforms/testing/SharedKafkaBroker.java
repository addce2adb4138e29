package dev.tidemark.transforms.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test the one {@link KafkaBroker} of its test run, as a parameter of a test, a lifecycle
 * method or a constructor: the first test that asks starts it, every later one shares it, and it is
 * stopped when the run ends, whether its tests passed or not (JUnit closes what the root store
 * holds). A test names its topics so that they differ from every other test's.
 */
public final class SharedKafkaBroker implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedKafkaBroker.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == KafkaBroker.class;
  }

  @Override
  public KafkaBroker resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(KafkaBroker.class, type -> start(), KafkaBroker.class);
  }

  private static KafkaBroker start() {
    try {
      return KafkaBroker.start();
    } catch (Exception e) {
      throw new ParameterResolutionException("the shared Kafka broker did not start", e);
    }
  }
}
