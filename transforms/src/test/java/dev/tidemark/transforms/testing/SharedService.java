package dev.tidemark.transforms.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test the one service of type {@code T} of its test run (a broker, a cluster), as a
 * parameter of a test, a lifecycle method or a constructor: the first test that asks starts it,
 * every later one shares it, and it is closed when the run ends, whether its tests passed or not
 * (JUnit closes what the root store holds).
 */
public abstract class SharedService<T extends AutoCloseable> implements ParameterResolver {

  /** A service that starts, or says why it could not. */
  @FunctionalInterface
  protected interface Starter<T> {
    T start() throws Exception;
  }

  private final Class<T> type;
  private final Starter<T> starter;

  protected SharedService(Class<T> type, Starter<T> starter) {
    this.type = type;
    this.starter = starter;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == type;
  }

  @Override
  public T resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return store(context).getOrComputeIfAbsent(type, key -> start(), type);
  }

  /** The service, if a test of this run has started it. */
  protected T startedOrNull(ExtensionContext context) {
    return store(context).get(type, type);
  }

  private ExtensionContext.Store store(ExtensionContext context) {
    return context.getRoot().getStore(ExtensionContext.Namespace.create(getClass()));
  }

  private T start() {
    try {
      return starter.start();
    } catch (Exception e) {
      throw new ParameterResolutionException(
          "the shared " + type.getSimpleName() + " did not start", e);
    }
  }
}
