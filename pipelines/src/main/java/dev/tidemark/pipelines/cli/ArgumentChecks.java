package dev.tidemark.pipelines.cli;

import dev.tidemark.pipelines.config.ConfigurationException;
import java.lang.reflect.Method;
import java.util.Map;
import org.apache.beam.sdk.options.Default;

/**
 * Checks the command line before Beam parses it, for the mistakes Beam would report badly: an
 * option of tidemark's given without a value (Beam reads {@code --windowSize} as {@code true}; only
 * a switch such as {@code --detached} means that), and a {@code --parallelism} that is not a whole
 * number of 1 or more (Beam runs with 0 or -3).
 */
final class ArgumentChecks {

  private ArgumentChecks() {}

  /**
   * Checks {@code args} of the pipeline whose options interface is {@code options}.
   *
   * @throws ConfigurationException with one line saying what is wrong
   */
  static void check(String[] args, Class<?> options) {
    Map<String, Method> own = Help.ownOptions(options);
    for (String arg : args) {
      if (!arg.startsWith("--")) {
        continue;
      }
      int equals = arg.indexOf('=');
      String name = arg.substring(2, equals < 0 ? arg.length() : equals);
      if (equals < 0 && own.containsKey(name) && own.get(name).getReturnType() != Boolean.class) {
        Default.String example = own.get(name).getAnnotation(Default.String.class);
        throw new ConfigurationException(
            "--"
                + name
                + " needs a value, e.g. --"
                + name
                + "="
                + (example == null ? "VALUE" : example.value()));
      }
      if (name.equals("parallelism")) {
        parallelism(equals < 0 ? "" : arg.substring(equals + 1));
      }
    }
  }

  private static void parallelism(String value) {
    int parallelism;
    try {
      parallelism = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new ConfigurationException(
          "--parallelism: '" + value + "' is not a whole number; use 1 or more");
    }
    if (parallelism < 1) {
      throw new ConfigurationException(
          "--parallelism: " + parallelism + " is not allowed; use 1 or more");
    }
  }
}
