package io.quarry.plugins.iplocation;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How {@code iplocation} writes place names, from Splunk's {@code lang=}: the languages to take
 * names in, most preferred first ({@code lang=de,en}), or {@code lang=code} for ISO codes (the
 * country's ISO 3166-1 code, the region's ISO 3166-2 subdivision code, the continent's two-letter
 * code; a city has no code and keeps its English name).
 *
 * <p>A database's names are looked up in its {@code names} maps, falling back to English. A country
 * known only by its code (the bundled table, country-only databases) is named from the JDK's locale
 * data (CLDR) in the first preferred language; in English a few of CLDR's names are written as
 * databases write them ({@code Hong Kong}, not {@code Hong Kong SAR China}).
 *
 * @param languages language tags as the database's {@code names} keys spell them ({@code en},
 *     {@code pt-BR}, {@code zh-CN}); empty with {@code codes}
 * @param codes whether {@code lang=code} asked for ISO codes instead of names
 */
record PlaceNames(List<String> languages, boolean codes) {
  private static final Map<String, String> ENGLISH_COUNTRIES =
      Map.of(
          "HK", "Hong Kong",
          "MO", "Macao",
          "MM", "Myanmar");

  PlaceNames {
    languages = List.copyOf(requireNonNull(languages, "languages is null"));
    if (!codes && languages.isEmpty()) {
      throw new IllegalArgumentException("no language");
    }
  }

  /**
   * Parses {@code lang=}: {@code code}, or language tags separated by commas.
   *
   * @throws IllegalArgumentException when it names no language
   */
  static PlaceNames parse(String lang) {
    if (lang.strip().equalsIgnoreCase("code")) {
      return new PlaceNames(List.of(), true);
    }
    List<String> languages = new ArrayList<>();
    for (String part : lang.split(",")) {
      String tag = part.strip();
      if (!tag.isEmpty()) {
        if (!tag.matches("[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")) {
          throw new IllegalArgumentException(
              "lang='" + lang + "': '" + tag + "' is not a language tag such as en, de or pt-BR");
        }
        languages.add(tag);
      }
    }
    if (languages.isEmpty()) {
      throw new IllegalArgumentException(
          "lang= needs a language such as en or de (or code for ISO codes)");
    }
    return new PlaceNames(languages, false);
  }

  /**
   * The name in the first preferred language that {@code names} (a database's {@code names} map)
   * has, else its English one, else null. With {@code codes}, the English name.
   */
  String pick(Map<?, ?> names) {
    if (names == null) {
      return null;
    }
    for (String language : languages) {
      if (names.get(language) instanceof String name) {
        return name;
      }
    }
    return names.get("en") instanceof String name ? name : null;
  }

  /** The country of an ISO 3166-1 code: the code itself with {@code codes}, else its name. */
  String country(String code) {
    if (code == null || codes) {
      return code;
    }
    Locale language = Locale.forLanguageTag(languages.get(0));
    String name = Locale.of("", code).getDisplayCountry(language);
    if (!language.getLanguage().equals("en")) {
      return name;
    }
    String english = ENGLISH_COUNTRIES.get(code.toUpperCase(Locale.ROOT));
    return english != null ? english : name.replace(" & ", " and ");
  }
}
