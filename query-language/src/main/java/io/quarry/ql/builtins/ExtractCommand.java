package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.exec.KeyValues;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * {@code extract} (also {@code kv}) {@code [pairdelim="…" kvdelim="…"] [limit=N] [maxchars=N]
 * [mv_add=b] [clean_keys=b]}: key/value pairs of each result's {@code _raw} as fields, on demand.
 * Without delimiters the pairs are the automatic {@code key=value} ones ({@link KeyValues}, what
 * every search extracts); with them, {@link DelimitedPairs}. Only the first {@code maxchars}
 * characters are read (10240) and the first {@code limit} pairs kept (50); a key seen again adds a
 * value only with {@code mv_add=t} (else the first value stays); {@code clean_keys} (default true)
 * makes keys field names. A found field fills a result without it; with {@code mv_add=t} its values
 * are added to the result's own (a multivalue); never an internal field ({@link FoundFields}).
 */
final class ExtractCommand implements CommandDefinition, CustomSyntax {
  private static final String RAW = "_raw";
  private final String name;

  /** {@code extract}, or its other name {@code kv}. */
  ExtractCommand(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return "Extracts key/value pairs of _raw as fields, automatic key=value or by given"
        + " delimiters.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return name
        + " [pairdelim=\"<chars>\" kvdelim=\"<chars>\"] [limit=<int>] [maxchars=<int>]"
        + " [mv_add=<bool>] [clean_keys=<bool>] [auto=<bool>] [reload=<bool>]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "pairdelim", ArgumentType.STRING, null, "characters that separate the pairs"),
        ArgumentSpec.optional(
            "kvdelim", ArgumentType.STRING, null, "characters that separate a key from its value"),
        ArgumentSpec.optional("limit", ArgumentType.LONG, "50", "how many pairs to extract"),
        ArgumentSpec.optional(
            "maxchars", ArgumentType.LONG, "10240", "how many characters of _raw to read"),
        ArgumentSpec.optional(
            "mv_add", ArgumentType.BOOLEAN, "false", "a key seen again adds a value"),
        ArgumentSpec.optional(
            "clean_keys",
            ArgumentType.BOOLEAN,
            "true",
            "other characters than letters, digits and _ become _, leading _ and digits go"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token at) {
    Map<String, Object> values = new HashMap<>();
    values.put("limit", 50L);
    values.put("maxchars", 10240L);
    values.put("mv_add", false);
    values.put("clean_keys", true);
    Map<String, Token> given = new HashMap<>();
    Token autoOff = null;
    while (!reader.atCommandEnd()) {
      if (reader.at(TokenType.COMMA) && !given.isEmpty()) {
        reader.next(); // Splunk's examples separate the options with commas
        continue;
      }
      if (!Syntax.atOption(reader)) {
        throw reader.unexpected(
            reader.peek(),
            "pairdelim=, kvdelim=, limit=, maxchars=, mv_add= or clean_keys= ("
                + name
                + " reads no extractor names)");
      }
      Token key = reader.next();
      reader.next(); // =
      Token value = reader.readValue("a value for " + key.text());
      String option = key.text().toLowerCase(Locale.ROOT);
      if (given.put(option, key) != null) {
        throw reader.error(key, name + ": " + option + " is given twice", "another option");
      }
      switch (option) {
        case "pairdelim", "kvdelim" -> {
          if (value.text().isEmpty()) {
            throw reader.error(value, name + ": " + option + " is empty", "one or more characters");
          }
          values.put(option, value.text());
        }
        case "limit" -> values.put(option, Syntax.whole(reader, value, "limit", 1, 100_000));
        case "maxchars" ->
            values.put(option, Syntax.whole(reader, value, "maxchars", 1, Integer.MAX_VALUE));
        case "mv_add", "clean_keys" -> values.put(option, Syntax.bool(reader, value));
        case "auto", "reload" -> { // Splunk's; auto=f: only the delimiters, reload: no .conf here
          if (!Syntax.bool(reader, value) && option.equals("auto")) {
            autoOff = key;
          }
        }
        default ->
            throw reader.error(
                key,
                name + " has no option '" + key.text() + "'",
                "pairdelim, kvdelim, limit, maxchars, mv_add, clean_keys, auto or reload");
      }
    }
    if (autoOff != null && !values.containsKey("pairdelim")) {
      throw reader.error(
          autoOff,
          name
              + " auto=f extracts nothing without pairdelim and kvdelim (no configured extractors)",
          "pairdelim=… kvdelim=…, or auto=t");
    }
    if (values.containsKey("pairdelim") != values.containsKey("kvdelim")) {
      Token one = given.getOrDefault("pairdelim", given.get("kvdelim"));
      throw reader.error(
          one, name + " needs both pairdelim and kvdelim, or neither", "pairdelim=… kvdelim=…");
    }
    return new CommandArguments(values, List.of());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(
        name,
        arguments.has("pairdelim") ? arguments.getString("pairdelim") : null,
        arguments.has("kvdelim") ? arguments.getString("kvdelim") : null,
        (int) arguments.getLong("limit"),
        (int) arguments.getLong("maxchars"),
        arguments.getBoolean("mv_add"),
        arguments.getBoolean("clean_keys"));
  }

  /** {@code pairDelims} and {@code kvDelims} null: automatic key=value. */
  record Bound(
      String name,
      String pairDelims,
      String kvDelims,
      int limit,
      int maxChars,
      boolean mvAdd,
      boolean cleanKeys)
      implements BoundCommand, WritesOwnSpl {
    @Override
    public java.util.Set<String> requiredFields() {
      return ALL_FIELDS; // the fields it finds are not known before
    }

    @Override
    public java.util.Set<String> producedFields() {
      return java.util.Set.of();
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      if (pairDelims != null) {
        parts.add("pairdelim=" + SplText.quote(pairDelims));
        parts.add("kvdelim=" + SplText.quote(kvDelims));
      }
      if (limit != 50) {
        parts.add("limit=" + limit);
      }
      if (maxChars != 10240) {
        parts.add("maxchars=" + maxChars);
      }
      if (mvAdd) {
        parts.add("mv_add=t");
      }
      if (!cleanKeys) {
        parts.add("clean_keys=f");
      }
      return String.join(" ", parts);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Block raw = input.block(RAW);
          List<Map<String, List<String>>> found = new ArrayList<>(input.positionCount());
          for (int p = 0; p < input.positionCount(); p++) {
            String text = FoundFields.text(raw, p);
            found.add(text == null ? Map.of() : fields(text));
          }
          return FoundFields.set(
              factory,
              input,
              found,
              mvAdd ? FoundFields.Existing.ADD : FoundFields.Existing.KEEP); // Splunk's MV_ADD
        }
      };
    }

    /** The fields of one {@code _raw}: the first {@code limit} pairs of its first characters. */
    Map<String, List<String>> fields(String raw) {
      String text = raw.length() > maxChars ? raw.substring(0, maxChars) : raw;
      Map<String, List<String>> fields = new LinkedHashMap<>();
      int[] taken = {0};
      BiConsumer<String, String> pair =
          (found, value) -> {
            String key = cleanKeys ? DelimitedPairs.clean(found) : found;
            if (key.isEmpty() || taken[0] == limit) {
              return;
            }
            List<String> values = fields.computeIfAbsent(key, k -> new ArrayList<>());
            if (values.isEmpty() || mvAdd) {
              values.add(value);
              taken[0]++;
            }
          };
      if (pairDelims == null) {
        KeyValues.forEachPair(text, true, pair);
      } else {
        DelimitedPairs.forEachPair(text, pairDelims, kvDelims, pair);
      }
      return fields;
    }
  }
}
