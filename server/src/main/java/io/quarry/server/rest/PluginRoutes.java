package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.plugin.api.SpiVersion;
import io.quarry.ql.command.CommandHelp;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.plugins.PluginManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /api/v1/plugins}: every plugin found, loaded or not (with the reason), and the
 * commands each loaded one adds, with their declared arguments.
 */
public final class PluginRoutes {
  private final Authenticator authenticator;
  private final PluginManager plugins;

  public PluginRoutes(Authenticator authenticator, PluginManager plugins) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.plugins = requireNonNull(plugins, "plugins is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.GET, "/api/v1/plugins", this::list);
  }

  private void list(Exchange exchange) {
    authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Plugins");
    exchange.json(HttpResponseStatus.OK, describe(plugins));
  }

  /** The JSON body of the listing (also what {@code quarry plugins list --json} prints). */
  public static Map<String, Object> describe(PluginManager plugins) {
    List<Map<String, Object>> all = new ArrayList<>();
    for (PluginManager.LoadedPlugin plugin : plugins.plugins()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", plugin.name());
      entry.put("version", plugin.version());
      entry.put("description", plugin.description());
      entry.put("spiVersion", plugin.spiVersion());
      entry.put("location", plugin.location());
      entry.put("loaded", plugin.loaded());
      if (!plugin.loaded()) {
        entry.put("error", plugin.error());
      }
      List<Map<String, Object>> commands = new ArrayList<>();
      for (String name : plugin.commands()) {
        CommandHelp help = plugins.registry().help(name).orElseThrow();
        Map<String, Object> command = new LinkedHashMap<>();
        command.put("name", help.name());
        command.put("kind", help.kind().name().toLowerCase(Locale.ROOT));
        command.put("syntax", help.syntax());
        command.put("description", help.description());
        List<Map<String, Object>> arguments = new ArrayList<>();
        for (var spec : help.arguments()) {
          Map<String, Object> argument = new LinkedHashMap<>();
          argument.put("name", spec.name());
          argument.put("type", spec.type().name().toLowerCase(Locale.ROOT));
          argument.put("required", spec.required());
          argument.put("default", spec.defaultValue());
          argument.put("positional", spec.positional());
          argument.put("description", spec.description());
          arguments.add(argument);
        }
        command.put("arguments", arguments);
        commands.add(command);
      }
      entry.put("commands", commands);
      all.add(entry);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("spiVersion", SpiVersion.current());
    body.put("plugins", all);
    return body;
  }
}
