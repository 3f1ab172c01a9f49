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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code xmlkv [<field>] [maxinputs=N]}: each {@code <tag>value</tag>} of a result's field (default
 * {@code _raw}; {@code xmlkv payload} or {@code field=payload}) whose value holds no tag (the
 * innermost elements; attributes of the opening tag allowed) becomes the field {@code tag}, its
 * first value when the tag repeats; an empty element gives no field. Every result is read: Splunk's
 * {@code maxinputs} is how many results go into one invocation of the command, which runs again
 * until all are read, so it is validated (at least 1) and has no other effect. Streaming.
 */
final class XmlKvCommand implements CommandDefinition {
  private static final Pattern ELEMENT =
      Pattern.compile("<([A-Za-z_][A-Za-z0-9_.:-]*)(?:\\s[^<>]*)?>([^<]+)</\\1\\s*>");

  @Override
  public String name() {
    return "xmlkv";
  }

  @Override
  public String description() {
    return "Extracts the innermost <tag>value</tag> elements of _raw (or a field) as fields.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("field", ArgumentType.FIELD, "_raw", "the field holding the XML")
            .alsoPositional(),
        ArgumentSpec.optional(
            "maxinputs", ArgumentType.LONG, "50000", "Splunk's batch size: accepted, no effect"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    long maxInputs = arguments.getLong("maxinputs");
    if (maxInputs < 1) {
      throw new IllegalArgumentException("maxinputs must be at least 1, not " + maxInputs);
    }
    return new Bound(arguments.getString("field"), maxInputs);
  }

  /** The elements of {@code text}, as fields. */
  static Map<String, List<String>> elements(String text) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    Matcher m = ELEMENT.matcher(text);
    while (m.find()) {
      fields.putIfAbsent(m.group(1), List.of(m.group(2)));
    }
    return fields;
  }

  /** The field read; {@code maxInputs}: kept for the search's text, every result is read. */
  record Bound(String field, long maxInputs) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS; // the fields it finds are not known before
    }

    @Override
    public Set<String> producedFields() {
      return Set.of();
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Block raw = input.block(field);
          List<Map<String, List<String>>> found = new ArrayList<>(input.positionCount());
          for (int p = 0; p < input.positionCount(); p++) {
            String text = FoundFields.text(raw, p);
            found.add(text == null ? Map.of() : elements(text));
          }
          return FoundFields.set(factory, input, found, FoundFields.Existing.REPLACE);
        }
      };
    }
  }
}
