import Foundation
import PackagePlugin

/// Compiles `Templates/*.mustache` into Swift for the target before it builds (see
/// `Sources/TemplateCompiler`). The templates are the target's own `Templates/` folder if it
/// has one (a benchmark's), else the package's. It reruns when a template, a catalog or a
/// Swift file of the target changes, since the Swift files declare the views the templates
/// are checked against.
@main
struct CompileTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let manager = FileManager.default
        let own = target.directoryURL.appending(path: "Templates")
        let templates = manager.fileExists(atPath: own.path()) ? own : context.package.directoryURL.appending(path: "Templates")
        let files = try manager.contentsOfDirectory(at: templates, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
        // The catalogs' order is the order of `Language.templateIndex`.
        let languages = ["en", "ko"].filter { manager.fileExists(atPath: templates.appending(path: "i18n/\($0).json").path()) }
        let catalogs = languages.map { templates.appending(path: "i18n/\($0).json") }
        let swiftFiles = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "CompiledTemplates.swift")
        return [
            .buildCommand(
                displayName: "Compiling templates",
                executable: try context.tool(named: "TemplateCompiler").url,
                arguments: ["--templates", templates.path(), "--languages", languages.joined(separator: ","), "--output", output.path()]
                    + swiftFiles.map { $0.path() },
                inputFiles: files + catalogs + swiftFiles,
                outputFiles: [output]
            )
        ]
    }
}
