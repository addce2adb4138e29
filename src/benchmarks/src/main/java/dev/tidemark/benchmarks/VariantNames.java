package dev.tidemark.benchmarks;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Function;

/** The jobs a benchmark's {@code --variants=a,b} names, among those it compares. */
final class VariantNames {

  private VariantNames() {}

  /**
   * The variants of {@code type} whose {@code option} is named in {@code names}, all of them when
   * {@code names} is null; a name that is none of them ends the benchmark with exit code 2 and a
   * line saying which names it takes.
   */
  static <E extends Enum<E>> Set<E> parse(
      Class<E> type, Function<E, String> option, String names, String comparing) {
    if (names == null) {
      return EnumSet.allOf(type);
    }
    Set<E> variants = EnumSet.noneOf(type);
    for (String name : names.split(",")) {
      E named = null;
      for (E variant : type.getEnumConstants()) {
        if (option.apply(variant).equals(name.trim())) {
          named = variant;
        }
      }
      if (named == null) {
        System.err.println("benchmark: " + comparing + ", not '" + name + "'");
        System.exit(2);
      }
      variants.add(named);
    }
    return variants;
  }
}
