package dev.tidemark.pipelines.cli;

import java.lang.reflect.Method;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/**
 * One option as {@code --help} and the README's options table both show it: its name, its default
 * and what it does. The one text of each option: tidemark's from its {@code @Description} and
 * {@code @Default}, the runner's from {@link Help#RUNNER_OPTIONS}.
 *
 * @param name the option's name, without {@code --}
 * @param defaultValue the default as the command line writes it, or {@link #NONE}
 * @param description what it does; a description that ends with {@code (default: X)} names a
 *     default that is not a value, such as another option's
 */
record OptionDoc(String name, String defaultValue, String description) {

  /** The default of an option that has none. */
  static final String NONE = "<none>";

  private static final Pattern DEFAULT_IN_TEXT = Pattern.compile("^(.*) \\(default: ([^)]*)\\)$");

  /** The option read by {@code getter}, a tidemark options interface's. */
  static OptionDoc of(String name, Method getter) {
    return new OptionDoc(name, defaultOf(getter), getter.getAnnotation(Description.class).value());
  }

  /** The default, from the default value, or else from the description's {@code (default: X)}. */
  String shownDefault() {
    if (!defaultValue.equals(NONE)) {
      return defaultValue;
    }
    Matcher inText = DEFAULT_IN_TEXT.matcher(description);
    return inText.matches() ? inText.group(2) : NONE;
  }

  /** The description without the {@code (default: X)} that {@link #shownDefault} took from it. */
  String meaning() {
    Matcher inText = DEFAULT_IN_TEXT.matcher(description);
    return defaultValue.equals(NONE) && inText.matches() ? inText.group(1) : description;
  }

  private static String defaultOf(Method getter) {
    Default.String text = getter.getAnnotation(Default.String.class);
    if (text != null) {
      return text.value();
    }
    Default.Integer number = getter.getAnnotation(Default.Integer.class);
    if (number != null) {
      return String.valueOf(number.value());
    }
    Default.Boolean flag = getter.getAnnotation(Default.Boolean.class);
    return flag == null ? NONE : String.valueOf(flag.value());
  }
}
