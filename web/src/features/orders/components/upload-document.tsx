import type { OrderDetails } from "@etd/contract";
import { ORDER_PAGE } from "@etd/contract/endpoints";
import { useId, useRef, useState } from "react";
import { Button } from "react-aria-components";
import type { MailProviderChoice } from "../utils/order-answers.ts";
import type { OrderCommands } from "../hooks/use-decisive-command.ts";
import { DocumentLink } from "./document-link.tsx";
import { emailProblem } from "./email-form.tsx";
import { FieldMessage, messageProps } from "./field-message.tsx";

/** ORDER-3's multipart form: the fields its declaration names, and the file as `uploadVisaDoc`. */
const documentForm = (orderId: string, email: string, file: File, mailServiceProvider: MailProviderChoice, expectedVersion: number): FormData => {
  const form = new FormData();
  form.set("orderId", orderId);
  form.set("email", email);
  form.set("mailServiceProvider", mailServiceProvider);
  form.set("expectedVersion", String(expectedVersion));
  form.set(ORDER_PAGE.uploadVisaDocument.form.file, file);
  return form;
};

interface Problems {
  readonly email?: string | undefined;
  readonly file?: string | undefined;
}

/**
 * ORDER-3: the finished document, uploaded and mailed to the customer through the chosen
 * provider. A decisive action: sent with the page's version (the server refuses it, keeping
 * nothing, when the order moved on).
 */
export const UploadDocument = ({ order, commands, readOnly }: { readonly order: OrderDetails; readonly commands: OrderCommands; readonly readOnly: boolean }) => {
  const id = useId();
  const [email, setEmail] = useState(order.email ?? "");
  const [file, setFile] = useState<File | undefined>(undefined);
  const [problems, setProblems] = useState<Problems>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const current = order.uploadDoc[0];

  const submit = async (provider: MailProviderChoice) => {
    const next: Problems = { email: emailProblem(email), file: file ? undefined : "File is required" };
    setProblems(next);
    if (next.email || next.file || !file) return;
    const done = await commands.decisive(`Upload Document (${provider === "aws" ? "AWS" : "Sendgrid"})`, ORDER_PAGE.uploadVisaDocument, (version) => ({
      form: documentForm(order.order_id, email.trim(), file, provider, version),
    }));
    if (done) {
      setFile(undefined);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  return (
    <section className="record-section order-section" aria-labelledby="upload-document-title" data-section="upload-document">
      <h2 id="upload-document-title">
        Upload Document
      </h2>
      <p>
        Current file: <DocumentLink path={current?.path} label={current?.file1 ?? ""} missing="No file uploaded yet" />
      </p>
      {readOnly ? null : (
        <form className="form order-upload-form" noValidate onSubmit={(event) => event.preventDefault()}>
          <div className="field">
            <label htmlFor={`${id}-order`}>Order ID</label>
            <input id={`${id}-order`} className="input" value={order.order_id} readOnly />
          </div>
          <div className="field">
            <label htmlFor={`${id}-email`}>Email</label>
            <input
              id={`${id}-email`}
              name="email"
              className="input"
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              {...messageProps(`${id}-email`, problems.email)}
            />
            <FieldMessage id={`${id}-email`} error={problems.email} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-file`}>Document (PDF or image)</label>
            <input
              id={`${id}-file`}
              ref={fileInput}
              name="uploadVisaDoc"
              className="input"
              type="file"
              accept="application/pdf,.pdf,image/*"
              onChange={(event) => setFile(event.target.files?.[0])}
              {...messageProps(`${id}-file`, problems.file)}
            />
            <FieldMessage id={`${id}-file`} error={problems.file} />
          </div>
          <div className="toolbar">
            <Button className="button button-primary" isDisabled={commands.busy !== undefined} onPress={() => void submit("aws")}>
              Submit via AWS
            </Button>
            <Button className="button button-primary" isDisabled={commands.busy !== undefined} onPress={() => void submit("sendgrid")}>
              Submit via Sendgrid
            </Button>
          </div>
        </form>
      )}
    </section>
  );
};
