const { GATEWAY_BASE_URL: gateway = "http://localhost:30000" } = process.env;

export function Chat(): JSX.Element {
  const send = () => fetch(gateway + "/v1/chat/completions", { method: "POST" });
  return <button onClick={send}>send</button>;
}
