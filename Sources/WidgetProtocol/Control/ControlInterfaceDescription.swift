/// The Varlink interface description (IDL) of `io.widgetscheduler.Scheduler`, served by
/// `org.varlink.service.GetInterfaceDescription`. It is identical to `docs/io.widgetscheduler.Scheduler.varlink`;
/// a test checks that.
extension ControlInterface {
    /// The interface description text, with its final newline.
    public static let description = """
    # The control interface of widget-scheduler: WidgetKit's timeline reload machinery as a Linux service.
    # Dates are RFC 3339 strings. Methods that change state (Reload, Add, Remove, Configure, DataSet, DataDelete)
    # need uid 0, the daemon's uid, membership of the group widget-scheduler, or ownership of the kind concerned.
    # A parameter missing, unknown, of the wrong type (none is converted) or out of range is refused with the
    # standard org.varlink.service.InvalidParameter (parameter), plus a reason string clients may ignore.
    # Their replies are sent once the change is committed to the daemon's state; when it cannot be, the error is
    # StateNotWritten.
    interface io.widgetscheduler.Scheduler

    # What the daemon did with a reload request for one widget.
    type Decision (
      widget: string,
      decision: (ran, coalesced, deferred),
      at: string,
      because: ?(floor, budget, backoff, concurrency)
    )

    # An image an entry's content names by its file name: stored by the daemon under its SHA-256, its bytes given by
    # Image. contentType is image/png, image/jpeg or image/webp; width and height are at most 2048, byteCount 2 MiB.
    type EntryImage (
      sha256: string,
      contentType: string,
      width: int,
      height: int,
      byteCount: int
    )

    type CurrentEntry (
      date: string,
      content: object,
      images: ?[string]EntryImage
    )

    type Widget (
      id: string,
      kind: string,
      family: string,
      configuration: [string]object,
      state: string,
      lastReload: ?string,
      lastReason: ?string,
      lastOutcome: ?string,
      nextReload: ?string,
      nextReason: ?string,
      tokens: float,
      currentEntry: ?CurrentEntry
    )

    type NextReload (
      widget: string,
      kind: string,
      at: string,
      reason: string
    )

    type Settings (
      minimumInterval: float,
      dailyBudget: float,
      burstBudget: float,
      maxConcurrentRuns: int,
      coalesceWindow: float,
      developerKinds: []string
    )

    # A directory of provider manifests: state is read, missing, not a directory or unreadable.
    type ProviderDirectory (
      path: string,
      state: string,
      manifests: int
    )

    type KindParameter (
      name: string,
      type: string,
      title: ?string,
      defaultValue: ?object,
      dynamicOptions: bool
    )

    type Kind (
      kind: string,
      displayName: ?string,
      description: ?string,
      families: []string,
      parameters: []KindParameter,
      group: ?string,
      ownerUsers: []string,
      ownerGroups: []string,
      developerMode: bool,
      widgets: int,
      manifest: string
    )

    type Option (
      value: object,
      title: ?string
    )

    type Relevance (
      score: float,
      duration: float
    )

    type Entry (
      date: string,
      relevance: ?Relevance,
      content: object,
      current: bool,
      images: ?[string]EntryImage
    )

    type Policy (
      policy: (atEnd, after, never),
      date: ?string
    )

    type LedgerRun (
      at: string,
      reason: string,
      outcome: string,
      budgeted: bool,
      count: ?int
    )

    type Ledger (
      widget: string,
      kind: string,
      tokens: float,
      capacity: float,
      nextTokenAt: ?string,
      minimumInterval: float,
      floorLiftsAt: ?string,
      developerMode: bool,
      budgetedRuns24h: int,
      exemptRuns24h: int,
      runs: []LedgerRun,
      consecutiveFailures: int,
      backoffUntil: ?string,
      quarantined: bool
    )

    type StackItem (
      widget: string,
      kind: string,
      score: ?float,
      normalized: ?float,
      relevant: bool,
      until: ?string,
      explanation: string
    )

    type DataItem (
      key: string,
      value: string,
      updatedAt: string
    )

    # A kind's views: a view document (docs/views.md, docs/views.schema.json), and the folder of its assets.
    type KindViews (
      kind: string,
      views: object,
      assets: ?string
    )

    # Writes of the state have failed since `since`: the daemon is degraded, keeps the changes in memory, refuses
    # state-changing calls (StateNotWritten) and tries again at nextAttempt.
    type StateWriteFailure (
      since: string,
      cause: string,
      attempts: int,
      nextAttempt: string
    )

    # Reloads the widgets of a kind, all widgets, or the named widgets: exactly one of kind, all, widgets.
    # One decision per widget; none when the kind (or the daemon) has no widgets. The reply names the kind asked for.
    method Reload(kind: ?string, all: ?bool, widgets: ?[]string, foreground: ?bool) -> (
      decisions: []Decision,
      kind: ?string
    )

    # Every widget with its configuration and schedule.
    method List() -> (widgets: []Widget)

    method Status() -> (
      version: string,
      pid: int,
      startedAt: string,
      status: string,
      widgets: int,
      kinds: int,
      running: int,
      pending: int,
      quarantined: int,
      nextReload: ?NextReload,
      settings: Settings,
      stateDirectory: string,
      # Whether changes wait for the paced state write: a kill -9 before it loses them (lost runs run again).
      stateWritePending: bool,
      socket: string,
      providerDirectories: ?[]ProviderDirectory,
      stateNotWritten: ?StateWriteFailure
    )

    method Kinds() -> (kinds: []Kind)

    # Adds a widget; missing parameters come from the provider's defaults, then the manifest's.
    method Add(kind: string, family: ?string, parameters: ?[string]object) -> (id: string)

    method Remove(id: string) -> ()

    # Changes parameters and triggers the budget-exempt configuration run.
    method Configure(id: string, parameters: [string]object) -> (decision: Decision)

    # A dynamic parameter's choices are asked of the provider: the run takes a slot like a widget's
    # (max-concurrent-runs; callers' runs hold at most half), identical questions at once share it, and a uid outside
    # root and the admin group may start options-rate runs a minute (RateLimited past it).
    method Options(kind: string, parameter: string, search: ?string) -> (
      options: []Option,
      source: (provider, manifest)
    )

    # One entry made by the provider's snapshot request (isPreview), for a gallery; parameters left out take the
    # manifest's defaults. Nothing is stored and no widget's budget is spent. The run takes a slot as Options' do, the
    # same preview asked at once shares it, and it counts towards the caller's options-rate (RateLimited past it).
    method Snapshot(kind: string, family: ?string, parameters: ?[string]object) -> (
      family: string,
      entry: CurrentEntry
    )

    method Timeline(id: string) -> (
      widget: string,
      kind: string,
      family: string,
      policy: ?Policy,
      entries: []Entry,
      nextReload: ?string,
      nextReason: ?string
    )

    method Budget(id: ?string, kind: ?string) -> (ledgers: []Ledger)

    # Streams events; call with more. When the daemon stops, the stream ends with the error DaemonStopping.
    method Watch(id: ?string, kind: ?string) -> (
      event: (entryChanged, runFinished, decision),
      widget: string,
      kind: string,
      date: string,
      content: ?object,
      images: ?[string]EntryImage,
      reason: ?string,
      outcome: ?string,
      detail: ?string,
      decision: ?(ran, coalesced, deferred),
      at: ?string,
      because: ?string
    )

    method Stack(ids: ?[]string) -> (stack: []StackItem)

    method DataSet(group: string, key: string, value: string, reloadKind: ?string) -> (
      updatedAt: string,
      decisions: []Decision
    )

    method DataGet(group: string, key: string) -> (key: string, value: string, updatedAt: string)

    method DataList(group: string) -> (items: []DataItem)

    method DataDelete(group: string, key: string) -> ()

    # The views hosts draw widgets with, of every kind that has them or of one kind; the daemon renders nothing.
    method Views(kind: ?string) -> (views: []KindViews)

    # The bytes of an image an entry names (its images' sha256), base64 in data, with the image as entries describe
    # it (read again from the stored bytes): by widget, an image of its stored timeline or current entry; by kind, one
    # of the kind's previews the daemon keeps (the latest Snapshot answers). Exactly one of widget and kind; readable
    # by whoever may call Timeline.
    method Image(widget: ?string, kind: ?string, sha256: string) -> (image: EntryImage, data: string)

    error UnknownKind (kind: string)
    error UnknownWidget (id: string)
    error UnknownKey (group: string, key: string)
    error PermissionDenied (method: string, reason: string)
    error ProviderFailed (kind: string, reason: string, detail: string)
    error InvalidMessage (reason: string)
    # A Watch stream's last message when the daemon stops: the stream ended cleanly, not the connection lost.
    error DaemonStopping ()
    # The daemon refused the connection: it serves limit connections already (max-connections); or, with reserved,
    # limit connections of others than root and the admin group, the reserved rest being kept for those
    # (admin-reserved-connections); or, with uid, that user holds limit of them (max-connections-per-user).
    error TooManyConnections (limit: int, uid: ?int, reserved: ?int)
    # The daemon closed the connection: a message stayed incomplete for seconds (message-timeout), or it went
    # without traffic for seconds while no call of it was open (idle-timeout).
    error ConnectionTimedOut (reason: (incompleteMessage, idle), seconds: float)
    # The daemon dropped the connection: its stream's unread replies passed limit bytes (watch-backlog-limit), or the
    # daemon's buffers passed limit bytes (buffer-budget) while it held more than its share.
    # Image alone refuses its call with daemonBudget, keeping the connection, when its reply would not fit in the
    # buffers' limit bytes: ask again once other readers have read theirs.
    error BufferFull (buffer: (streamBacklog, daemonBudget), limit: int)
    # uid asked method (Options) for more provider runs than perMinute a minute (options-rate); it may ask again in
    # retryAfter seconds.
    error RateLimited (method: string, uid: int, perMinute: float, retryAfter: float)
    # The daemon cannot write its state (cause: a full disk, an I/O error), so the change was not saved. applied: false,
    # nothing was changed; true, the change is in effect in the running daemon and is saved if a retry succeeds before it
    # stops, lost otherwise.
    error StateNotWritten (cause: string, applied: bool)
    # No entry of the widget (its stored timeline, its current entry), or no kept preview of the kind, names an image
    # with this SHA-256.
    error NoSuchImage (widget: ?string, kind: ?string, sha256: string)

    """
}
