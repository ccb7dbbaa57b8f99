/// Where a hook sends an event: a command or a webhook (adapters: MTTSystem's `CommandHook`,
/// MTTHTTP's `WebhookHook`). Throws with a one-line reason when the event did not get there; a
/// delivery that takes longer than its hook's timeout is ended by the adapter.
public protocol HookDelivery: Sendable {
    func deliver(_ event: FieldEvent) async throws
}
