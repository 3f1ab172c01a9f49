package io.quarry.plugins.urlparse;

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
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code urlparse [field=url] [prefix=<field>_] [params=true] [maxparams=32]}: for each row, the
 * URL in {@code field} split into {@code <prefix>scheme}, {@code host}, {@code port}, {@code path},
 * {@code query}, {@code fragment}, and, with {@code params}, one {@code <prefix>qs_<name>} field
 * per query parameter (URL-decoded; the first value when a name repeats). Rows without the field
 * pass unchanged.
 */
public final class UrlParseCommand implements CommandDefinition {
  static final String[] PARTS = {"scheme", "host", "port", "path", "query", "fragment"};

  @Override
  public String name() {
    return "urlparse";
  }

  @Override
  public String description() {
    return "Splits a URL field into scheme, host, port, path, query, fragment and one field per"
        + " query parameter.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("field", ArgumentType.FIELD, "url", "the field holding the URL"),
        ArgumentSpec.optional(
            "prefix", ArgumentType.STRING, null, "prefix of the new fields (default: <field>_)"),
        ArgumentSpec.optional(
            "params", ArgumentType.BOOLEAN, "true", "add a <prefix>qs_<name> field per parameter"),
        ArgumentSpec.optional(
            "maxparams",
            ArgumentType.LONG,
            "32",
            "at most this many distinct parameter names become fields (the first seen)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String field = arguments.getString("field");
    String prefix = arguments.has("prefix") ? arguments.getString("prefix") : field + "_";
    long maxParams = arguments.getLong("maxparams");
    if (maxParams < 0 || maxParams > 1024) {
      throw new IllegalArgumentException("maxparams must be between 0 and 1024, not " + maxParams);
    }
    return new Bound(field, prefix, arguments.getBoolean("params"), (int) maxParams);
  }

  private record Bound(String field, String prefix, boolean params, int maxParams)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      Set<String> produced = new LinkedHashSet<>();
      for (String part : PARTS) {
        produced.add(prefix + part);
      }
      if (params) {
        produced.add(prefix + "qs_*");
      }
      return produced;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return new UrlParseOperator(this, context);
    }
  }

  private static final class UrlParseOperator extends PageTransformOperator {
    private final Bound bound;
    private final OperatorContext context;
    private final Set<String> parameterNames = new java.util.HashSet<>();
    private boolean warned;

    UrlParseOperator(Bound bound, OperatorContext context) {
      this.bound = bound;
      this.context = context;
    }

    @Override
    protected Page process(Page input) {
      Block urls = input.block(bound.field());
      if (urls == null) {
        return input; // no row of this page has the field
      }
      int positions = input.positionCount();
      BlockFactory factory = context.blockFactory();
      BytesBlock.Builder scheme = factory.newBytesBlockBuilder(positions);
      BytesBlock.Builder host = factory.newBytesBlockBuilder(positions);
      LongBlock.Builder port = factory.newLongBlockBuilder(positions);
      BytesBlock.Builder path = factory.newBytesBlockBuilder(positions);
      BytesBlock.Builder query = factory.newBytesBlockBuilder(positions);
      BytesBlock.Builder fragment = factory.newBytesBlockBuilder(positions);
      Map<String, String[]> parameters = new LinkedHashMap<>();
      for (int p = 0; p < positions; p++) {
        Object value = urls.getObject(p);
        Url url =
            value == null
                ? new Url(null, null, null, null, null, null)
                : Url.parse(value.toString());
        scheme.appendNullable(url.scheme());
        host.appendNullable(url.host());
        port.appendNullable(url.port());
        path.appendNullable(url.path());
        query.appendNullable(url.query());
        fragment.appendNullable(url.fragment());
        if (bound.params()) {
          for (Url.Parameter parameter : Url.parameters(url.query())) {
            String[] column = parameters.get(parameter.name());
            if (column == null) {
              if (!parameterNames.contains(parameter.name())
                  && parameterNames.size() >= bound.maxParams()) {
                if (!warned) {
                  warned = true;
                  context.warn(
                      "urlparse: more than "
                          + bound.maxParams()
                          + " distinct query parameters; the rest are not fields (maxparams)");
                }
                continue;
              }
              parameterNames.add(parameter.name());
              column = new String[positions];
              parameters.put(parameter.name(), column);
            }
            if (column[p] == null) {
              column[p] = parameter.value();
            }
          }
        }
      }
      Page output = input;
      String prefix = bound.prefix();
      output = factory.withColumn(output, prefix + "scheme", scheme.build());
      output = factory.withColumn(output, prefix + "host", host.build());
      output = factory.withColumn(output, prefix + "port", port.build());
      output = factory.withColumn(output, prefix + "path", path.build());
      output = factory.withColumn(output, prefix + "query", query.build());
      output = factory.withColumn(output, prefix + "fragment", fragment.build());
      for (Map.Entry<String, String[]> parameter : parameters.entrySet()) {
        BytesBlock.Builder values = factory.newBytesBlockBuilder(positions);
        for (String v : parameter.getValue()) {
          values.appendNullable(v);
        }
        output = factory.withColumn(output, prefix + "qs_" + parameter.getKey(), values.build());
      }
      return output;
    }
  }
}
