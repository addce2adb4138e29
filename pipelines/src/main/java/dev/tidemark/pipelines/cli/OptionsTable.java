package dev.tidemark.pipelines.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The README's options table, made from the same texts as {@code --help} ({@link OptionDoc}), so
 * the two cannot disagree: one row per option of the commands that read records, with its default
 * (and where a command has another, which), then the runner's options. {@code OptionsTableTest}
 * fails when the README's table is not this one, and prints this one.
 */
final class OptionsTable {

  private OptionsTable() {}

  /** The table, in Markdown, for {@code commands}: each command's name and options interface. */
  static String markdown(Map<String, Class<?>> commands) {
    Map<String, Map<String, OptionDoc>> byOption = new LinkedHashMap<>();
    for (Map.Entry<String, Class<?>> command : commands.entrySet()) {
      for (OptionDoc option : Help.ownOptionDocs(command.getValue())) {
        byOption
            .computeIfAbsent(option.name(), name -> new LinkedHashMap<>())
            .put(command.getKey(), option);
      }
    }
    StringBuilder table = new StringBuilder("| option | default | meaning |\n|---|---|---|\n");
    byOption.forEach((name, ofCommands) -> table.append(row(name, ofCommands)));
    for (OptionDoc option : Help.RUNNER_OPTIONS) {
      table.append(row(option.name(), Map.of("", option)));
    }
    return table.toString();
  }

  /** A row: the first command's default and text, and any other command's other default. */
  private static String row(String name, Map<String, OptionDoc> ofCommands) {
    OptionDoc first = ofCommands.values().iterator().next();
    List<String> others = new ArrayList<>();
    ofCommands.forEach(
        (command, option) -> {
          if (!option.shownDefault().equals(first.shownDefault())) {
            others.add("`" + command + "`: " + code(option.shownDefault()));
          }
        });
    String defaults =
        code(first.shownDefault())
            + (others.isEmpty() ? "" : " (" + String.join(", ", others) + ")");
    return "| `--"
        + name
        + "` | "
        + defaults
        + " | "
        + first.meaning().replace("|", "\\|")
        + " |\n";
  }

  private static String code(String value) {
    return value.equals(OptionDoc.NONE) ? "none" : "`" + value + "`";
  }
}
