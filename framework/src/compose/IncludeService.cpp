// The include service (one policy for every format: URI lookup, depth, cycles, counts, the path
// policy, each file's bytes read once per load) and the reading of one file by its plugin.
#include "compose/LoaderImpl.hpp"
#include "util/PathText.hpp"

namespace interlink {

namespace {

namespace fs = std::filesystem;

/// The first bytes handed to sniffers.
constexpr std::size_t kSniffBytes = 4096;

/// Reads a whole file (or takes the bytes the loader kept of it, unchanged since); refuses what
/// cannot be a model description before any plugin sees it.
std::optional<io::FileText> readModelFile(const std::string& path, const SourceLocation& requestedAt,
                                          const LoadOptions& options, Diagnostics& diagnostics,
                                          io::FileContentCache& cache) {
  auto content = io::readLargeRegularFile(path, options.maxFileBytes, requestedAt, diagnostics, cache);
  if (!content || !io::checkModelText(content->text, path, diagnostics)) return std::nullopt;
  return content;
}

/// LoadOptions::strict: what a format's reader tolerated as its reference tool does (XML_SYNTAX
/// and DEVIATION_TOLERATED warnings from `from` on) refuses the file instead.
void refuseTolerated(Diagnostics& diagnostics, std::size_t from) {
  for (std::size_t i = from; i < diagnostics.size(); ++i) {
    Diagnostic& d = diagnostics.items()[i];
    if (d.code == ErrorCode::XML_SYNTAX || d.code == ErrorCode::DEVIATION_TOLERATED) d.severity = Severity::Error;
  }
}


/// Sets the framework's bookkeeping on every model of a document a plugin returned: each keeps
/// its own file's rules, and its extension records keep the plugin's code loaded.
void stampSource(Model& model, const ModelSource& source, const std::shared_ptr<const void>& plugin) {
  // A model that comes with its source is a recorded core model (the core-model JSON reader):
  // it keeps the format rules it was first read under.
  if (model.source.format.empty()) model.source = source;
  model.extensions.retain(plugin);
  for (Model& nested : model.models) stampSource(nested, source, plugin);
}


}  // namespace

const detail::UriLookup& Loader::Impl::lookUpUri(const std::string& uri, const std::string& fromFile,
                                                 const Context& context) const {
  // Relative URIs depend on the including file's directory only: one lookup per load for each.
  const std::string_view directory = detail::parentPath(fromFile);
  std::string key;
  key.reserve(directory.size() + 1 + uri.size());
  key.append(directory.data(), directory.size()).append(1, '\n').append(uri);
  auto [known, inserted] = context.resolvedUris.try_emplace(key);
  if (inserted) known->second = detail::lookUpUri(uri, fromFile, context.searchPath, context.options.findFile);
  return known->second;
}

std::optional<std::string> Loader::Impl::modelFileInDirectory(const std::string& directory, const std::string& uri,
                                                              const std::string& includerFormat, const SourceLocation& where,
                                                              Diagnostics& diagnostics) const {
  const PluginHandle includer = registry.findByName(includerFormat);
  const plugin::FormatApi* api = includer ? includer.descriptor().format : nullptr;
  // A format without model directories: the directory itself, which the file checks refuse
  // (FILE_READ: "... is a directory").
  if (!api || api->size < sizeof(plugin::FormatApi) || !api->modelFileInDirectory) return directory;
  std::string file = api->modelFileInDirectory(directory, uri, where, diagnostics);
  if (file.empty()) return std::nullopt;  // the plugin said why
  std::error_code ec;
  file = fs::absolute(fs::path(directory) / file).lexically_normal().string();
  if (!fs::exists(file, ec)) {
    diagnostics.error(ErrorCode::URI_LOOKUP, "model file '" + file + "' does not exist", where);
    return std::nullopt;
  }
  return file;
}

std::optional<std::string> Loader::Impl::beginInclude(const std::string& uri, const std::string& fromFile,
                                                      const std::string& includerFormat, const SourceLocation& where,
                                                      Diagnostics& diagnostics, Context& context) const {
  const int depth = static_cast<int>(context.includeStack.size()) - 1;
  if (depth >= context.options.maxIncludeDepth) {
    diagnostics.error(ErrorCode::INCLUDE_DEPTH,
                      "includes nested more than " + std::to_string(context.options.maxIncludeDepth) + " deep at '" +
                          uri + "' (runaway include?)",
                      where);
    return std::nullopt;
  }
  if (uri.empty()) {
    diagnostics.error(ErrorCode::ELEMENT_MISSING, "<include> has no <uri>", where);
    return std::nullopt;
  }
  if (context.includeLimitReported) return std::nullopt;  // reported once; the rest is not expanded
  const detail::UriLookup& lookup = lookUpUri(uri, fromFile, context);
  const bool fromHost = lookup.fromHost;
  std::string resolved = lookup.path;
  if (resolved.empty() && !context.includeStack.empty()) {
    // A file being loaded that exists only as text (Loader::loadString) can still close a cycle.
    std::error_code ec;
    const fs::path written(uri);
    const std::string candidate =
        fs::absolute(written.is_absolute() ? written : fs::path(fromFile).parent_path() / written, ec).lexically_normal().string();
    if (std::find(context.includeStack.begin(), context.includeStack.end(), candidate) != context.includeStack.end()) {
      diagnostics.error(ErrorCode::INCLUDE_CYCLE, "include cycle: back to '" + candidate + "'", where);
      return std::nullopt;
    }
  }
  if (resolved.empty()) {
    diagnostics.error(ErrorCode::URI_LOOKUP, detail::describeFailedLookup(uri, lookup), where);
    return std::nullopt;
  }
  // The path policy, before anything of the included tree is read (a directory's manifest too).
  // A file the host's findFile named is the host's choice.
  auto refusedByPolicy = [&](const std::string& path) {
    if (fromHost) return false;
    const std::string why = context.pathPolicy.refusal(path);
    if (why.empty()) return false;
    diagnostics.error(ErrorCode::PATH_OUTSIDE_ROOTS, "include '" + uri + "' not read: " + why, where);
    return true;
  };
  if (refusedByPolicy(resolved)) return std::nullopt;
  // The lookup's stat said whether it found a directory; a path the host's findFile gave is asked.
  std::error_code ec;
  if (fromHost ? fs::is_directory(resolved, ec) : lookup.isDirectory) {
    auto file = modelFileInDirectory(resolved, uri, includerFormat, where, diagnostics);
    if (!file || refusedByPolicy(*file)) return std::nullopt;
    resolved = *file;
  }
  std::string canonical = canonicalOf(resolved, context);
  if (canonical.empty()) canonical = resolved;  // a name only a host parser understands
  if (std::find(context.includeStack.begin(), context.includeStack.end(), canonical) != context.includeStack.end()) {
    std::string chain;
    for (const auto& p : context.includeStack) chain += p + " -> ";
    diagnostics.error(ErrorCode::INCLUDE_CYCLE, "include cycle: " + chain + canonical, where);
    return std::nullopt;
  }
  // Files that include the next one twice pass the depth and cycle checks but grow exponentially.
  if (++context.includedModels > context.options.maxIncludedModels) {
    reportIncludeLimit("more than " + std::to_string(context.options.maxIncludedModels) +
                           " includes (included models) in one load (LoadOptions::maxIncludedModels; an include bomb?)",
                       canonical, where, diagnostics, context);
    return std::nullopt;
  }
  context.includeStack.push_back(canonical);
  return resolved;
}

std::optional<std::string_view> Loader::Impl::readFile(const std::string& path, const SourceLocation& requestedAt,
                                                      Diagnostics& diagnostics, Context& context) const {
  auto cached = context.files.find(path);
  if (cached != context.files.end()) return cached->second.text;
  auto content = readModelFile(path, requestedAt, context.options, diagnostics, fileCache);
  if (!content) return std::nullopt;
  return context.files.emplace(path, std::move(*content)).first->second.text;
}

std::optional<Document> Loader::Impl::loadDocument(const std::string& path, const SourceLocation& requestedAt,
                                                   Context& context) const {
  // Say so before reading a file nobody could parse (content decides only when sniffers exist
  // and the file is there to be sniffed).
  const bool named = !requestedAt.known() && !context.options.format.empty();
  std::error_code ec;
  if (!named && !registry.claimsExtension(path) && (!registry.hasSniffers() || !fs::exists(path, ec))) {
    reportNoParser(path, requestedAt, context);
    return std::nullopt;
  }
  const std::optional<std::string_view> content = readFile(path, requestedAt, context.diagnostics, context);
  if (!content) return std::nullopt;
  return parseDocument(path, *content, requestedAt, context);
}

std::optional<Document> Loader::Impl::parseDocument(const std::string& path, std::string_view content,
                                                    const SourceLocation& requestedAt, Context& context) const {
  const std::string format = requestedAt.known() ? std::string() : context.options.format;
  PluginHandle plugin = format.empty() ? registry.formatFor(path, content.substr(0, kSniffBytes)) : registry.findByName(format);
  if (plugin && plugin.info().kind != plugin::PluginKind::Format) plugin = PluginHandle();
  if (!plugin && !format.empty()) {
    context.diagnostics.error(ErrorCode::NO_PARSER,
                              "no format plugin named '" + format + "'; loaded plugins: " + registry.describeFormats(),
                              SourceLocation{path, 0, 0});
    return std::nullopt;
  }
  if (!plugin) {
    reportNoParser(path, requestedAt, context);
    return std::nullopt;
  }
  // What the plugin may ask of this load: URIs, the include service, the hardware catalogs.
  struct CallContext {
    const Impl* self;
    Context* context;
    std::string format;
  } call{this, &context, plugin.info().name};
  plugin::HostServices host;
  host.context = &call;
  host.resolveUri = [](const void* ctx, const std::string& uri, const std::string& fromFile) -> std::string {
    const auto* c = static_cast<const CallContext*>(ctx);
    return c->self->resolveUri(uri, fromFile, *c->context);
  };
  host.beginInclude = [](const void* ctx, const std::string& uri, const std::string& fromFile, const SourceLocation& where,
                         plugin::IncludedFile& file, Diagnostics& diagnostics) -> bool {
    const auto* c = static_cast<const CallContext*>(ctx);
    Context& load = *c->context;
    auto resolved = c->self->beginInclude(uri, fromFile, c->format, where, diagnostics, load);
    const std::optional<std::string_view> bytes =
        resolved ? c->self->readFile(*resolved, where, diagnostics, load) : std::nullopt;
    if (resolved && !bytes) load.includeStack.pop_back();
    if (!bytes) return false;
    file.path = *resolved;
    file.content = *bytes;
    return true;
  };
  host.endInclude = [](const void* ctx) {
    auto& stack = static_cast<const CallContext*>(ctx)->context->includeStack;
    if (stack.size() > 1) stack.pop_back();
  };
  host.hardware = &context.hardware;
  host.checkPath = [](const void* ctx, const std::string& file) -> std::string {
    return static_cast<const CallContext*>(ctx)->context->pathPolicy.refusal(file);
  };
  host.meshBudget = &context.meshBudget;
  plugin::LoadRequest request;
  request.path = path;
  request.content = content;
  request.host = &host;
  host.arguments = &context.options.arguments;
  Document document;
  const std::size_t diagnosticsBefore = context.diagnostics.size();
  PluginHandle reader = plugin;  // a macro language's file is read by the plugin of its expansion
  if (plugin.expands()) {
    const bool topLevel = !requestedAt.known();
    detail::ExpansionResult expansion = detail::expandThenLoad(registry, plugin, request, document, context.diagnostics,
                                                               topLevel && context.options.keepExpandedText);
    if (!expansion.reader) return std::nullopt;
    reader = expansion.reader;
    if (topLevel) {
      // Kept when asked for only (a plugin may write text though not asked: xacro does when its
      // expansion would not read back as the same tree, a name beyond ASCII for one).
      if (context.options.keepExpandedText) context.expandedText = std::move(expansion.text);
      context.expandedExtension = expansion.extension;
    }
  } else {
    plugin.load(request, document, context.diagnostics);
  }
  if (context.options.strict) refuseTolerated(context.diagnostics, diagnosticsBefore);
  if (document.sourceFile.empty()) document.sourceFile = path;
  if (document.format.empty()) document.format = reader.info().name;
  const ModelSource source{path, reader.info().name, document.formatVersion, false, document.rules};
  const std::shared_ptr<const void> keepAlive = reader.keepAlive();
  if (document.model) stampSource(*document.model, source, keepAlive);
  for (World& world : document.worlds) {
    for (Model& m : world.models) stampSource(m, source, keepAlive);
  }
  return document;
}

}  // namespace interlink
