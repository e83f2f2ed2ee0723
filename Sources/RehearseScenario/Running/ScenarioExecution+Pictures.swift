import RehearseCore

/// A run's pictures that are not the filmstrip: the golden pictures `expect-picture` steps compare
/// (and record, with `--update-pictures`), and the scenes the HTML report shows after each step.
extension ScenarioExecution {
    /// Pictures the scene as `step` left it, unless the run's pictures would draw more than
    /// ``ScenarioRunner/Rendering/maximumPictureNodes``: then the timeline stops there (with a note),
    /// and the run goes on. A gesture step's `frames` (``finishGestureFrames(at:)``) go with it.
    func pictureStep(_ step: Step, frames: [GestureFrame]) {
        // A step that only looks (an expectation, a snapshot) leaves the scene as the step before did.
        if step.action.onlyLooks, let previous = stepPictures.last {
            return stepPictures.append(StepPicture(location: step.location, action: step.action, picture: previous.picture))
        }
        if let picture = reportPicture(at: step.location) {
            stepPictures.append(StepPicture(location: step.location, action: step.action, picture: picture, frames: frames))
        }
    }

    /// The scene now for the report, unless the run's pictures would draw more than
    /// ``ScenarioRunner/Rendering/maximumPictureNodes``: then the report's pictures stop there
    /// (with a note), and the run goes on.
    func reportPicture(at location: SourceLocation) -> SceneSnapshot? {
        let picture = SceneSnapshot(simulation)
        return admitReportPictures(nodes: picture.items.count + 1, at: location) ? picture : nil
    }

    /// Whether the report's pictures may draw `nodes` more (counting them if so); the first time
    /// they may not, the report's pictures stop there, with a note.
    func admitReportPictures(nodes: Int, at location: SourceLocation) -> Bool {
        guard !stepPicturesFull else { return false }
        guard pictureNodes + nodes <= ScenarioRunner.Rendering.maximumPictureNodes else {
            stepPicturesFull = true
            notes.append(
                "the report's pictures stop at \(location): they would draw more than "
                    + "\(ScenarioRunner.Rendering.maximumPictureNodes) nodes")
            return false
        }
        pictureNodes += nodes
        return true
    }

    /// Compares `picture` with the golden picture `name`; with `--update-pictures`, records it
    /// where the reference is missing, unreadable or different, and says so.
    func check(_ picture: SceneSnapshot, against name: String, tolerance: Double, at step: Step) {
        let subject = "picture '\(name)'"
        guard let references else {
            return fail(
                step, subject,
                "no folder for golden pictures: the scenario's file name (less .yaml) must be "
                    + "\(PlainFileName.rule), as it names the folder \(PictureReferences.folderName)/<file name>")
        }
        let drawing = PictureDrawing(picture)
        let differences: [String]
        var reference: PictureDrawing?
        let reading = references.read(name, counting: &referenceBytes)
        guard referenceBytes <= PictureReferences.maximumBytesPerRun else {
            stopReason =
                "the golden pictures of this run would read more than \(PictureReferences.maximumBytesPerRun >> 20) MiB of "
                + "references, the most one run reads; name fewer or smaller pictures"
            return
        }
        switch reading {
        case .missing:
            differences = [
                "no reference recorded at \(references.relativePath(of: name)) (beside the scenario); "
                    + "record it with \(PictureReferences.updateCommand(for: currentLocation.file))"
            ]
        case .unreadable(let problem):
            differences = [problem]
        case .drawing(let recorded):
            reference = recorded
            differences = PictureComparison(tolerance: tolerance).differences(from: recorded, to: drawing)
        }
        guard !differences.isEmpty else { return }
        guard pictureOptions.update else {
            pictureMismatches.append(PictureMismatch(name: name, reference: reference, actual: picture, tolerance: tolerance))
            return record(
                subject, expected: "the drawing of \(references.relativePath(of: name))",
                actual: differences.joined(separator: "; "),
                at: step.location)
        }
        do {
            let path = try references.write(name, drawing: drawing, svg: SVGRenderer.document(picture))
            if case .missing = reading {
                notes.append("picture '\(name)' recorded at \(path)")
            } else {
                notes.append("picture '\(name)' updated at \(path): \(differences.joined(separator: "; "))")
            }
        } catch {
            fail(step, subject, "\(error)")
        }
    }
}
