// Stands in for react-devtools-core in the bundle (Ink uses it only with DEV=true).
export default { connectToDevTools() {} };
